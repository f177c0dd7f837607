//! The README and the command reference (docs/commands/*.md) agree with the command line:
//! every flag they name for a command is in that command's `--help`, the README stays short,
//! and the README's commands run.
//!
//! A command is named in a code block (a line `chuhan ...`, `cargo run --release -- ...` or
//! `target/release/chuhan ...`) or in inline code (the same, or `datagen --flag ...` starting
//! with a command's name). A lone flag in inline code (`--nodes`) belongs to the command of
//! the heading above it (`## \`chuhan match\``), or, under a heading that names no single
//! command, to any command.

use crate::fixtures as common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The README's length limit: a newcomer's page, the reference lives in docs/commands/.
const README_MAX_LINES: usize = 150;

/// Lines of README.md's command blocks that this test does not run: the main job itself
/// (minutes of release-built games; `.ci/run` runs it as written) and the test command.
const NOT_RUN: &[&str] = &["cargo run --release -- ladder", "scripts/test.sh"];

/// Flags accepted for old scripts but hidden from `--help`; the docs may name them, and the
/// test checks that the command still accepts them.
const HIDDEN: &[(&str, &str)] = &[("ladder", "bootstrap"), ("calibrate", "bootstrap")];

/// Budgets shrunk so that the README's commands run in seconds on a debug-built binary:
/// (command, flag, value). The flag's value is replaced where the command gives the flag and
/// the flag appended where it does not. Nothing else of a command changes.
const SHRINK: &[(&str, &str, &str)] = &[
    ("perft", "--max-depth", "3"),
    ("sprt", "--nodes", "200"),
    ("sprt", "--max-pairs", "2"),
    ("ladder", "--pairs", "1"),
    ("ladder", "--max-games", "18"),
    ("calibrate", "--pairs", "1"),
    ("datagen", "--games", "4"),
    ("datagen", "--nodes", "200"),
    ("tune texel", "--epochs", "5"),
    ("tune spsa", "--iterations", "2"),
    ("tune spsa", "--nodes", "200"),
];

/// How a command line may start in the docs; what follows is `chuhan`'s arguments.
const PREFIXES: &[&str] = &[
    "chuhan ",
    "cargo run --release -- ",
    "target/release/chuhan ",
    "target/debug/chuhan ",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The command tree read from `--help`: "" (the top level), "perft", "tune texel", ... each
/// with the long flags its help lists.
struct Cli {
    flags: BTreeMap<String, BTreeSet<String>>,
    /// Subcommands of the commands that have them (`tune`).
    subcommands: BTreeMap<String, BTreeSet<String>>,
}

/// The names under a help text's `Commands:` heading, `help` left out.
fn help_commands(help: &str) -> BTreeSet<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// The long flags an option line of a help text defines (`  -h, --help`, `      --nodes <N>`);
/// description lines are indented further and are not read.
fn help_flags(help: &str) -> BTreeSet<String> {
    let mut flags = BTreeSet::new();
    for line in help.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent > 6 || !line.trim_start().starts_with('-') {
            continue;
        }
        for token in line.split([' ', ',']) {
            if let Some(name) = flag_name(token) {
                flags.insert(name);
            }
        }
    }
    flags
}

fn help_of(words: &[&str]) -> String {
    let mut args = words.to_vec();
    args.push("--help");
    let (code, out, err) = common::chuhan(&args);
    assert_eq!(code, 0, "chuhan {} failed: {err}", args.join(" "));
    out
}

impl Cli {
    fn read() -> Cli {
        let mut flags = BTreeMap::new();
        let mut subcommands = BTreeMap::new();
        let top = help_of(&[]);
        flags.insert(String::new(), help_flags(&top));
        for command in help_commands(&top) {
            let help = help_of(&[&command]);
            flags.insert(command.clone(), help_flags(&help));
            let subs = help_commands(&help);
            for sub in &subs {
                let key = format!("{command} {sub}");
                flags.insert(key, help_flags(&help_of(&[&command, sub])));
            }
            if !subs.is_empty() {
                subcommands.insert(command, subs);
            }
        }
        Cli { flags, subcommands }
    }

    fn is_command(&self, word: &str) -> bool {
        !word.is_empty() && self.flags.contains_key(word)
    }
}

/// `--name` at the start of `token` (after an opening bracket): `name`.
fn flag_name(token: &str) -> Option<String> {
    let rest = token.trim_start_matches(['[', '(']).strip_prefix("--")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    (!name.is_empty() && name.starts_with(|c: char| c.is_ascii_alphanumeric())).then_some(name)
}

/// A command named in a doc: where, which command (`tune texel`; `None` for a lone flag
/// under a heading that names no command), and its flags.
#[derive(Debug)]
struct Mention {
    place: String,
    command: Option<String>,
    flags: Vec<String>,
}

/// A command line of a code block: where, and its arguments after the prefix.
struct CodeCommand {
    line: usize,
    text: String,
}

/// What one markdown file names.
struct Doc {
    mentions: Vec<Mention>,
    /// Lines of shell code blocks (```sh, ```bash, ``` or indented), in order.
    shell_lines: Vec<CodeCommand>,
    /// Places where a `chuhan` command line names no known command.
    errors: Vec<String>,
}

/// `text` after a command prefix, if it starts with one.
fn strip_prefix(text: &str) -> Option<&str> {
    PREFIXES
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .or_else(|| (text == "chuhan").then_some(""))
}

/// Reads a command's words (`tune texel`) and flags from `args`, the words after `chuhan`.
fn command_of(cli: &Cli, args: &str, place: &str, errors: &mut Vec<String>) -> Option<Mention> {
    let words = common::shell_words(args);
    let mut rest = words.iter().map(String::as_str).peekable();
    let mut command = String::new();
    match rest.peek() {
        None => {}
        Some(w) if w.starts_with("--") => {}
        // A placeholder (`chuhan <command> --help`): the flags must be every command's.
        Some(w) if w.starts_with('<') => {
            rest.next();
            command = "<command>".to_string();
        }
        Some(w) if cli.is_command(w) => {
            command = rest.next().unwrap().to_string();
            if let Some(subs) = cli.subcommands.get(&command) {
                match rest.peek() {
                    Some(s) if subs.contains(*s) => {
                        command = format!("{command} {}", rest.next().unwrap());
                    }
                    Some(s) if !s.starts_with("--") => {
                        errors.push(format!(
                            "{place}: `chuhan {command} {s}`: no such subcommand (chuhan {command} --help)"
                        ));
                        return None;
                    }
                    _ => {}
                }
            }
        }
        Some(w) => {
            errors.push(format!(
                "{place}: `chuhan {w}`: no such command (chuhan --help)"
            ));
            return None;
        }
    }
    Some(Mention {
        place: place.to_string(),
        command: Some(command),
        flags: rest.filter_map(flag_name).collect(),
    })
}

/// The inline code spans of a line outside code blocks.
fn inline_spans(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2)
}

/// The one command a heading names (`## \`chuhan tune spsa\``), if exactly one.
fn heading_command(cli: &Cli, heading: &str) -> Option<String> {
    let mut ignored = Vec::new();
    let commands: BTreeSet<String> = inline_spans(heading)
        .filter_map(strip_prefix)
        .filter_map(|args| command_of(cli, args, "", &mut ignored)?.command)
        .filter(|c| !c.is_empty())
        .collect();
    (commands.len() == 1).then(|| commands.into_iter().next().unwrap())
}

fn parse_doc(cli: &Cli, name: &str, text: &str) -> Doc {
    let mut doc = Doc {
        mentions: Vec::new(),
        shell_lines: Vec::new(),
        errors: Vec::new(),
    };
    // (heading level, the command it names)
    let mut headings: Vec<(usize, Option<String>)> = Vec::new();
    // Some(is a shell block) inside a fenced block.
    let mut fence: Option<bool> = None;
    let mut pending = String::new();
    let mut pending_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let trimmed = raw.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = match fence {
                Some(_) => None,
                None => {
                    let info = trimmed.trim_start_matches(['`', '~']).trim();
                    Some(matches!(info, "" | "sh" | "bash" | "shell" | "console"))
                }
            };
            continue;
        }
        let indented_code =
            fence.is_none() && raw.starts_with("    ") && strip_prefix(trimmed).is_some();
        if fence.is_some() || indented_code {
            // A command line continued with a backslash is one command.
            if pending.is_empty() {
                pending_line = number;
            }
            match trimmed.strip_suffix('\\') {
                Some(head) => {
                    pending.push_str(head);
                    pending.push(' ');
                    continue;
                }
                None => pending.push_str(trimmed),
            }
            let line = std::mem::take(&mut pending);
            let place = format!("{name}:{pending_line}");
            if fence == Some(true) || indented_code {
                doc.shell_lines.push(CodeCommand {
                    line: pending_line,
                    text: line.clone(),
                });
            }
            if let Some(args) = strip_prefix(&line) {
                doc.mentions
                    .extend(command_of(cli, args, &place, &mut doc.errors));
            }
            continue;
        }
        let place = format!("{name}:{number}");
        if let Some(level) = trimmed
            .split_once(' ')
            .filter(|(h, _)| !h.is_empty() && h.chars().all(|c| c == '#'))
            .map(|(h, _)| h.len())
        {
            headings.retain(|(l, _)| *l < level);
            headings.push((level, heading_command(cli, trimmed)));
        }
        let section = headings.iter().rev().find_map(|(_, c)| c.clone());
        for span in inline_spans(trimmed) {
            let span = span.trim();
            if let Some(args) = strip_prefix(span) {
                doc.mentions
                    .extend(command_of(cli, args, &place, &mut doc.errors));
            } else if span.starts_with("--") {
                doc.mentions.push(Mention {
                    place: place.clone(),
                    command: section.clone(),
                    flags: common::shell_words(span)
                        .iter()
                        .filter_map(|w| flag_name(w))
                        .collect(),
                });
            } else if span.contains(" --")
                && span.split(' ').next().is_some_and(|w| cli.is_command(w))
            {
                doc.mentions
                    .extend(command_of(cli, span, &place, &mut doc.errors));
            }
        }
    }
    doc
}

/// Every flag of `mentions` that the named command's `--help` does not list.
fn unknown_flags(cli: &Cli, mentions: &[Mention]) -> Vec<String> {
    let mut problems = Vec::new();
    for m in mentions {
        for flag in &m.flags {
            let known = match m.command.as_deref() {
                Some("<command>") => cli.flags.values().all(|f| f.contains(flag)),
                Some(c) => cli.flags[c].contains(flag) || HIDDEN.contains(&(c, flag.as_str())),
                None => cli.flags.values().any(|f| f.contains(flag)),
            };
            if !known {
                let what = match m.command.as_deref() {
                    Some("") => "chuhan".to_string(),
                    Some(c) => format!("chuhan {c}"),
                    None => "any command".to_string(),
                };
                problems.push(format!(
                    "{}: --{flag} is not a flag of {what} (see its --help)",
                    m.place
                ));
            }
        }
    }
    problems
}

/// README.md and docs/commands/*.md, by their paths relative to the repository.
fn docs() -> Vec<(String, String)> {
    let root = repo();
    let mut files = vec!["README.md".to_string()];
    let mut pages: Vec<String> = std::fs::read_dir(root.join("docs/commands"))
        .expect("docs/commands exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/commands/{n}"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(root.join(&f)).unwrap();
            (f, text)
        })
        .collect()
}

#[test]
fn every_flag_the_docs_name_is_in_that_commands_help() {
    let cli = Cli::read();
    assert!(
        cli.flags.contains_key("perft") && cli.flags.contains_key("tune spsa"),
        "the command tree was read: {:?}",
        cli.flags.keys().collect::<Vec<_>>()
    );
    let mut problems = Vec::new();
    let mut documented = BTreeSet::new();
    for (name, text) in docs() {
        let doc = parse_doc(&cli, &name, &text);
        assert!(
            !doc.mentions.is_empty(),
            "{name} names no command: the parser read nothing"
        );
        problems.extend(doc.errors);
        problems.extend(unknown_flags(&cli, &doc.mentions));
        if name.starts_with("docs/commands/") {
            documented.extend(doc.mentions.into_iter().filter_map(|m| m.command));
        }
    }
    // Every command (and subcommand) has its reference page.
    for command in cli.flags.keys() {
        if !command.is_empty()
            && !cli.subcommands.contains_key(command)
            && !documented.contains(command)
        {
            problems.push(format!("chuhan {command} is in no page of docs/commands/"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));

    // The top-level help points to the reference.
    let (_, top, _) = common::chuhan(&["--help"]);
    assert!(
        top.lines()
            .next()
            .unwrap_or("")
            .contains("docs/commands/README.md"),
        "chuhan --help does not point to docs/commands/README.md:\n{top}"
    );

    // The hidden flags the docs may name are still accepted (clap reads them before --help).
    for (command, flag) in HIDDEN {
        let (code, _, err) = common::chuhan(&[command, &format!("--{flag}"), "5", "--help"]);
        assert_eq!(code, 0, "chuhan {command} --{flag}: {err}");
    }
}

#[test]
fn the_checker_names_the_file_and_line_of_a_wrong_flag() {
    let cli = Cli::read();
    let text = "# x\n\n```sh\nchuhan match --pairs 2 --no-such-flag 3\n```\n\n\
                ## `chuhan ladder`\n\nSee `--precision` and `--nodes`; `chuhan tune texel --lambda 0`.\n\
                `chuhan frobnicate --x`\n";
    let doc = parse_doc(&cli, "x.md", text);
    let problems = unknown_flags(&cli, &doc.mentions);
    assert_eq!(
        problems,
        [
            "x.md:4: --no-such-flag is not a flag of chuhan match (see its --help)",
            "x.md:9: --nodes is not a flag of chuhan ladder (see its --help)",
        ]
    );
    assert_eq!(
        doc.errors,
        ["x.md:10: `chuhan frobnicate`: no such command (chuhan --help)"]
    );
}

#[test]
fn the_readme_is_short() {
    let text = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let lines = text.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, at most {README_MAX_LINES}: the reference goes to docs/commands/"
    );
}

/// The relative link targets (`[text](target)`) of a markdown text, with their line numbers.
fn relative_links(text: &str) -> Vec<(usize, String)> {
    let mut links = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices("](") {
            let rest = &line[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if !target.contains("://") && !target.starts_with('#') && !target.is_empty() {
                links.push((i + 1, target.to_string()));
            }
        }
    }
    links
}

#[test]
fn the_docs_links_resolve() {
    let mut broken = Vec::new();
    let mut seen = 0;
    for (name, text) in docs() {
        let base = repo().join(&name);
        let folder = base.parent().unwrap();
        for (line, target) in relative_links(&text) {
            seen += 1;
            let file = target.split('#').next().unwrap();
            if !folder.join(file).exists() {
                broken.push(format!("{name}:{line}: {target} does not exist"));
            }
        }
    }
    assert!(seen > 20, "only {seen} links read");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// `args` with the budgets of `SHRINK` for `command`.
fn shrunk(command: &str, mut args: Vec<String>) -> Vec<String> {
    for (c, flag, value) in SHRINK {
        if *c != command {
            continue;
        }
        match args.iter().position(|a| a == flag) {
            Some(i) => args[i + 1] = value.to_string(),
            None => args.extend([flag.to_string(), value.to_string()]),
        }
    }
    args
}

#[test]
fn the_readmes_commands_run() {
    let cli = Cli::read();
    let text = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let doc = parse_doc(&cli, "README.md", &text);
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);

    // The commands run in a scratch folder where the repository's inputs are at hand and every
    // relative output (`--out results/...`) lands.
    let dir = common::scratch("docs", "readme");
    for input in ["configs", "crates"] {
        std::os::unix::fs::symlink(repo().join(input).canonicalize().unwrap(), dir.join(input))
            .unwrap();
    }
    let mut exempt = BTreeSet::new();
    let mut ran = 0;
    for CodeCommand { line, text } in &doc.shell_lines {
        if text.is_empty() {
            continue;
        }
        if NOT_RUN.contains(&text.as_str()) {
            exempt.insert(text.as_str());
            continue;
        }
        let Some(args) = strip_prefix(text) else {
            panic!("README.md:{line}: `{text}` is neither a chuhan command nor exempt (NOT_RUN)");
        };
        let words = common::shell_words(args);
        let command = match cli.subcommands.get(&words[0]) {
            Some(_) => format!("{} {}", words[0], words[1]),
            None => words[0].clone(),
        };
        for pair in words.windows(2) {
            if pair[0] == "--out" || pair[0] == "--resume" {
                assert!(
                    Path::new(&pair[1]).is_relative(),
                    "README.md:{line}: {} {} writes outside the scratch folder",
                    pair[0],
                    pair[1]
                );
            }
        }
        let args = shrunk(&command, words);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = common::chuhan_in(Some(&dir), &refs);
        assert_eq!(
            code,
            0,
            "README.md:{line}: chuhan {} exited {code}\nstdout:\n{out}\nstderr:\n{err}",
            args.join(" ")
        );
        ran += 1;
    }
    assert_eq!(
        exempt,
        NOT_RUN.iter().copied().collect(),
        "the README's two commands are in its code blocks as written"
    );
    assert!(ran >= 5, "only {ran} of the README's commands ran");
}
