//! The server's log goes to standard error through one background thread: a request hands its line over
//! and goes on, never waiting for the terminal or the disk. The thread writes what has gathered, then
//! pauses (`GATHER`) before it waits again: waking it for every line was a tenth of a busy server's time.

use std::io::Write;
use std::sync::mpsc;
use tracing_subscriber::fmt::MakeWriter;

/// How long the writing thread lets lines gather after writing; a line is on standard error this much later
/// at most, once the lines before it are written.
const GATHER: std::time::Duration = std::time::Duration::from_millis(10);

/// Where log lines go: a channel to the thread that writes them.
pub struct Background {
    lines: mpsc::Sender<Vec<u8>>,
}

impl Background {
    pub fn start() -> Background {
        let (lines, queue) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            let mut out = std::io::BufWriter::new(std::io::stderr());
            while let Ok(line) = queue.recv() {
                let _ = out.write_all(&line);
                // Write whatever else is waiting, then flush once the queue is empty.
                while let Ok(more) = queue.try_recv() {
                    let _ = out.write_all(&more);
                }
                let _ = out.flush();
                // Senders meanwhile only queue: nobody waits to be woken.
                std::thread::sleep(GATHER);
            }
        });
        Background { lines }
    }
}

/// One log event's text, sent when the event is written.
pub struct Line {
    text: Vec<u8>,
    lines: mpsc::Sender<Vec<u8>>,
}

impl Write for Line {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.text.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Line {
    fn drop(&mut self) {
        if !self.text.is_empty() {
            let _ = self.lines.send(std::mem::take(&mut self.text));
        }
    }
}

impl<'a> MakeWriter<'a> for Background {
    type Writer = Line;
    fn make_writer(&'a self) -> Line {
        Line { text: Vec::with_capacity(96), lines: self.lines.clone() }
    }
}
