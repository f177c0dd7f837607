//! Standard output for every command. `println!` panics when stdout is closed (`chuhan params |
//! head -1`), so commands print through [`outln!`] and [`out!`] instead: a reader that went away
//! ends the process quietly with exit 0, as a command cut short by its consumer conventionally
//! does; any other write failure is reported as an error.

use std::io::{self, ErrorKind, Write};

/// Writes formatted text to stdout; never returns if the write fails (see the module doc).
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if let Err(err) = out.write_fmt(args) {
        write_failed(&err);
    }
}

/// Ends the process after a failed write to stdout: quietly on a broken pipe (the reader has
/// all it wanted), with an error message otherwise.
pub fn write_failed(err: &io::Error) -> ! {
    if err.kind() == ErrorKind::BrokenPipe {
        std::process::exit(i32::from(crate::EXIT_OK));
    }
    eprintln!("chuhan: error: writing to stdout: {err}");
    std::process::exit(i32::from(crate::EXIT_USAGE));
}

/// True when `err` was caused by writing to a closed pipe, anywhere in its chain.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == ErrorKind::BrokenPipe)
    })
}

/// `println!` that ends quietly on a closed stdout instead of panicking.
macro_rules! outln {
    () => {
        $crate::output::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` that ends quietly on a closed stdout instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!($($arg)*))
    };
}
