//! Line input and output for the protocol loops: one thread reads stdin and sends
//! lines over a channel; one thread writes and flushes every line it is given.

use std::io::{BufRead, Write};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, unbounded};
use search::StopFlag;

/// Longest input line accepted; longer lines are dropped with an error reply.
pub const MAX_LINE: usize = 1 << 20;

/// How much of a dropped long line is kept, for its reply.
pub const KEPT_START: usize = 64;

/// What the reader thread hands to a protocol loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// One line, without its line ending (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes, dropped.
    TooLong {
        /// Its length in bytes.
        length: usize,
        /// Its first [`KEPT_START`] bytes (invalid UTF-8 replaced), e.g. for a GTP
        /// command's id, which the reply must echo.
        start: String,
    },
    /// End of input.
    Eof,
}

/// A protocol front end (UGI+, GTP, NBoard) as the one input loop, [`serve`], drives
/// it: the loop reads, the front end answers.
pub trait FrontEnd {
    /// Handles one line; false ends the loop (`quit`).
    fn line(&mut self, line: &str) -> bool;
    /// Answers a line too long to read (its length in bytes and its start) with the
    /// protocol's error reply; false ends the loop.
    fn too_long(&mut self, length: usize, start: &str) -> bool;
    /// The end of input (what `quit` would do); the loop ends after it.
    fn end_of_input(&mut self) {}
    /// Whether work waits for a search to end (UGI+'s commands queued behind a
    /// search): the loop then wakes every [`POLL`] to call [`FrontEnd::poll`].
    fn waiting(&self) -> bool {
        false
    }
    /// Does the waiting work that can be done now; false ends the loop.
    fn poll(&mut self) -> bool {
        true
    }
    /// Once the loop has ended: stops what still runs (a search, an analysis).
    fn finish(&mut self);
}

/// How often the loop looks at a front end's waiting work.
pub const POLL: std::time::Duration = std::time::Duration::from_millis(5);

/// Hands `front` one item of input; false when the loop is to end.
pub fn hand(front: &mut dyn FrontEnd, item: Input) -> bool {
    match item {
        Input::Line(line) => front.line(&line) && front.poll(),
        Input::TooLong { length, start } => front.too_long(length, &start) && front.poll(),
        Input::Eof => {
            front.end_of_input();
            false
        }
    }
}

/// The input loop of every front end: the item already read (`first`, the line that
/// chose the protocol), then `input` until `quit` or its end; then
/// [`FrontEnd::finish`].
pub fn serve(front: &mut dyn FrontEnd, first: Option<Input>, input: &Receiver<Input>) {
    let mut going = first.is_none_or(|item| hand(front, item));
    while going {
        let item = if front.waiting() {
            match input.recv_timeout(POLL) {
                Ok(item) => item,
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                    going = front.poll();
                    continue;
                }
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => Input::Eof,
            }
        } else {
            input.recv().unwrap_or(Input::Eof)
        };
        going = hand(front, item);
    }
    front.finish();
}

/// Starts a thread reading lines from `reader`. The channel ends with [`Input::Eof`].
pub fn spawn_reader<R: BufRead + Send + 'static>(reader: R) -> Receiver<Input> {
    spawn_reader_with_hangup(reader, StopFlag::new())
}

/// Like [`spawn_reader`], and raises `hangup` the moment input ends or a `quit` line
/// arrives (see [`is_quit`]), even while the protocol loop is busy with a command (a
/// GTP `genmove` or an NBoard search watches it, so that an engine told to leave, or
/// whose GUI went away, stops thinking at once; the `quit` line itself still reaches
/// the loop, behind the lines before it). A UTF-8 byte order mark at the start of the
/// input is dropped.
pub fn spawn_reader_with_hangup<R: BufRead + Send + 'static>(mut reader: R, hangup: StopFlag) -> Receiver<Input> {
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut first = true;
            loop {
                let mut input = read_line(&mut reader);
                if std::mem::take(&mut first) {
                    input = without_bom(input);
                }
                let eof = input == Input::Eof;
                if eof || matches!(&input, Input::Line(line) if is_quit(line)) {
                    hangup.stop();
                }
                if tx.send(input).is_err() || eof {
                    break;
                }
            }
        })
        .expect("cannot start the input thread");
    rx
}

/// True for a line that asks the engine to leave in any of the line protocols: its
/// first word that is not a number (a GTP command id) is `quit`.
pub fn is_quit(line: &str) -> bool {
    line.split_whitespace().find(|w| protocol::gtp::read_id(w).is_none()) == Some("quit")
}

/// The input with a UTF-8 byte order mark removed from the start of its line (a file
/// saved by some editors starts with one; it is not part of the first command).
pub fn without_bom(input: Input) -> Input {
    match input {
        Input::Line(line) => match line.strip_prefix('\u{feff}') {
            Some(rest) => Input::Line(rest.to_string()),
            None => Input::Line(line),
        },
        Input::TooLong { length, start } => {
            let start = start.strip_prefix('\u{feff}').map(str::to_string).unwrap_or(start);
            Input::TooLong { length, start }
        }
        Input::Eof => Input::Eof,
    }
}

/// Reads one line, never holding more than [`MAX_LINE`] bytes of it: a longer line is
/// read to its end and dropped, keeping its length and start. A read error counts as
/// the end of input. For every reader of lines that come from outside: protocol
/// input, a person at a terminal, an engine's output.
pub fn read_line<R: BufRead>(reader: &mut R) -> Input {
    let mut line = Vec::new();
    let mut length = 0usize;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Input::Eof,
        };
        if chunk.is_empty() {
            return if length == 0 { Input::Eof } else { finish(line, length) };
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        // A line that grows too long keeps only its start, for the reply.
        let keep = if length + take <= MAX_LINE { take } else { KEPT_START.saturating_sub(line.len()).min(take) };
        line.extend_from_slice(&chunk[..keep]);
        length += take;
        reader.consume(if done { take + 1 } else { take });
        if done {
            return finish(line, length);
        }
    }
}

fn finish(mut line: Vec<u8>, length: usize) -> Input {
    if length > MAX_LINE {
        line.truncate(KEPT_START);
        return Input::TooLong { length, start: String::from_utf8_lossy(&line).into_owned() };
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Input::Line(String::from_utf8_lossy(&line).into_owned())
}

/// A handle for writing protocol lines; cheap to clone and share with search threads.
#[derive(Clone, Debug)]
pub struct Output(Sender<String>);

impl Output {
    /// Queues one line (without its newline) for writing.
    pub fn line(&self, text: impl Into<String>) {
        // The writer only stops after every Output is dropped; a failed send means
        // stdout is gone, and then there is nobody to tell.
        let _ = self.0.send(text.into());
    }

    /// Queues several lines, e.g. a drawing.
    pub fn lines(&self, text: &str) {
        for l in text.lines() {
            self.line(l);
        }
    }
}

/// Starts the writer thread on `writer`. Join the handle after dropping every
/// [`Output`] clone to be sure everything was written.
pub fn spawn_writer<W: Write + Send + 'static>(mut writer: W) -> (Output, JoinHandle<()>) {
    let (tx, rx) = unbounded::<String>();
    let handle = std::thread::Builder::new()
        .name("stdout".into())
        .spawn(move || {
            for line in rx {
                if writeln!(writer, "{line}").and_then(|_| writer.flush()).is_err() {
                    break;
                }
            }
        })
        .expect("cannot start the output thread");
    (Output(tx), handle)
}

/// An output that collects lines in memory, for tests of the loops.
#[cfg(test)]
pub fn collecting_output() -> (Output, Receiver<String>) {
    let (tx, rx) = unbounded();
    (Output(tx), rx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines_of(bytes: &[u8]) -> Vec<Input> {
        let rx = spawn_reader(Cursor::new(bytes.to_vec()));
        rx.iter().collect()
    }

    #[test]
    fn splits_lines_and_ends_with_eof() {
        assert_eq!(
            lines_of(b"a\r\nb\n\nlast"),
            vec![
                Input::Line("a".into()),
                Input::Line("b".into()),
                Input::Line("".into()),
                Input::Line("last".into()),
                Input::Eof
            ]
        );
        assert_eq!(lines_of(b""), vec![Input::Eof]);
    }

    #[test]
    fn long_lines_are_dropped_and_reading_goes_on() {
        let mut bytes = vec![b'x'; MAX_LINE + 10];
        bytes[..6].copy_from_slice(b"7 play");
        bytes.extend_from_slice(b"\nisready\n");
        let got = lines_of(&bytes);
        let start = format!("7 play{}", "x".repeat(KEPT_START - 6));
        assert_eq!(got[0], Input::TooLong { length: MAX_LINE + 10, start });
        assert_eq!(got[1], Input::Line("isready".into()));
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_dropped() {
        assert_eq!(
            lines_of(b"\xef\xbb\xbfugi\n\xef\xbb\xbfx\n")[..2],
            [Input::Line("ugi".into()), Input::Line("\u{feff}x".into())]
        );
    }

    #[test]
    fn quit_lines_raise_the_hangup_before_the_loop_reads_them() {
        for (text, quits) in [
            ("quit", true),
            ("  7 quit", true),
            ("123456789012345678901234567890 quit", true),
            ("quitx", false),
            ("name quit", false),
            ("", false),
        ] {
            assert_eq!(is_quit(text), quits, "{text:?}");
        }
        // A pipe kept open: the input does not end, only the `quit` line can raise it.
        let (reader, mut writer) = std::io::pipe().expect("a pipe");
        let hangup = StopFlag::new();
        let rx = spawn_reader_with_hangup(std::io::BufReader::new(reader), hangup.clone());
        writer.write_all(b"genmove b\n").expect("write");
        assert_eq!(rx.recv().ok(), Some(Input::Line("genmove b".into())));
        assert!(!hangup.is_stopped());
        writer.write_all(b"3 quit\n").expect("write");
        assert_eq!(rx.recv().ok(), Some(Input::Line("3 quit".into())));
        assert!(hangup.is_stopped());
        drop(writer);
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        let got = lines_of(b"\xff\xfe go\n");
        assert_eq!(got[0], Input::Line("\u{fffd}\u{fffd} go".into()));
    }
}
