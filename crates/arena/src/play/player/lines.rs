//! Lines from a byte stream with bounded memory: bytes are bytes. A line longer than the cap
//! keeps its first `cap` bytes and the rest is skipped (flagged, never buffered); invalid UTF-8
//! is decoded lossily (flagged). Both the external-engine reader and `chuhan uci`'s input loop
//! read through here, so neither a megabyte line nor a stray byte ends a session.

use std::io::{self, BufRead};

/// Default cap on one line: far above any UCI/UCCI line a real engine prints.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line read by [`read_capped_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CappedLine {
    /// The text (lossily decoded, without the line end), at most the cap's bytes before
    /// decoding.
    pub text: String,
    /// Bytes of the line dropped beyond the cap (0 when the line fit).
    pub dropped: u64,
    /// Whether the kept bytes were not valid UTF-8 (replaced by U+FFFD).
    pub invalid_utf8: bool,
}

/// Reads the next line (ended by `\n`, an optional `\r` before it removed) keeping at most
/// `cap` bytes; `Ok(None)` at the end of the stream. Memory use is bounded by `cap` plus the
/// reader's buffer whatever the input.
pub fn read_capped_line<R: BufRead + ?Sized>(
    reader: &mut R,
    cap: usize,
) -> io::Result<Option<CappedLine>> {
    let mut kept: Vec<u8> = Vec::new();
    let mut dropped = 0u64;
    let mut seen_any = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (chunk, found_end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        let room = cap.saturating_sub(kept.len());
        let take = room.min(chunk.len());
        kept.extend_from_slice(&chunk[..take]);
        dropped += (chunk.len() - take) as u64;
        let used = chunk.len() + usize::from(found_end);
        reader.consume(used);
        if found_end {
            break;
        }
    }
    if kept.last() == Some(&b'\r') && dropped == 0 {
        kept.pop();
    }
    let (text, invalid_utf8) = match String::from_utf8(kept) {
        Ok(s) => (s, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    };
    Ok(Some(CappedLine {
        text,
        dropped,
        invalid_utf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Cursor};

    fn all(bytes: &[u8], cap: usize) -> Vec<CappedLine> {
        // A tiny buffer makes every path (a line across many fills) run.
        let mut r = BufReader::with_capacity(3, Cursor::new(bytes.to_vec()));
        let mut out = Vec::new();
        while let Some(l) = read_capped_line(&mut r, cap).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn lines_are_capped_decoded_lossily_and_never_lost() {
        let mut input = b"uci\r\nisready\n".to_vec();
        input.extend_from_slice(b"go \xff\xfe depth 3\n");
        input.extend(std::iter::repeat(b'x').take(100));
        input.extend_from_slice(b"\nlast");
        let lines = all(&input, 10);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "uci",
                "isready",
                "go \u{FFFD}\u{FFFD} dept",
                "xxxxxxxxxx",
                "last"
            ]
        );
        assert_eq!(lines[2].dropped, 3);
        assert!(lines[2].invalid_utf8 && !lines[1].invalid_utf8);
        assert_eq!(lines[3].dropped, 90);
        assert_eq!(lines[4].dropped, 0);
        assert!(all(b"", 10).is_empty());
        assert_eq!(all(b"\n\n", 10).len(), 2);
    }
}
