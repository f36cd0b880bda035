//! Logging: one `tracing` subscriber, filtered by `--log`, as text (coloured only on a terminal) or as one JSON
//! object per line (`--log-format json`) for log collectors. Every line passes through [`Scrubbing`], which masks
//! the CPFs in it (an error from the database can quote the row it refused), so logs never hold a whole CPF.

use std::io::{IsTerminal, Write};
use tracing_subscriber::{EnvFilter, fmt::MakeWriter};

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines; colours only when standard error is a terminal.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Installs the subscriber on standard error.
pub fn init(filter: &str, format: LogFormat) -> anyhow::Result<()> {
    let builder = tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(filter)?)
        .with_writer(Scrubbing(std::io::stderr));
    match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => builder.json().with_ansi(false).init(),
    }
    Ok(())
}

/// A log writer that masks CPFs before the bytes reach `W`: each event is gathered whole (the formatter writes one
/// event per writer) and scrubbed when the writer is dropped.
#[derive(Debug, Clone, Copy)]
pub struct Scrubbing<M>(pub M);

impl<'a, M> MakeWriter<'a> for Scrubbing<M>
where
    M: MakeWriter<'a>,
{
    type Writer = ScrubbedEvent<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        ScrubbedEvent {
            inner: self.0.make_writer(),
            buffer: Vec::with_capacity(256),
        }
    }
}

/// One event's bytes, written scrubbed when dropped.
#[derive(Debug)]
pub struct ScrubbedEvent<W: Write> {
    inner: W,
    buffer: Vec<u8>,
}

impl<W: Write> Write for ScrubbedEvent<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<W: Write> Drop for ScrubbedEvent<W> {
    fn drop(&mut self) {
        let text = String::from_utf8_lossy(&self.buffer);
        // Most lines hold no run of eleven digits: skip the scrub's copy for them.
        let scrubbed = if text.bytes().filter(u8::is_ascii_digit).count() >= 11 {
            service::privacy::scrub_cpfs(&text)
        } else {
            text.into_owned()
        };
        let _ = self.inner.write_all(scrubbed.as_bytes());
        let _ = self.inner.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::Error::other("poisoned"))?
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn log_lines_never_hold_a_whole_cpf() {
        let out = Shared::default();
        let sink = out.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(Scrubbing(move || sink.clone()))
            .with_ansi(false)
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            tracing::error!(
                error = "duplicate key value violates unique constraint: Key (document)=(12345678909) already exists",
                "ingestion failed for 987.654.321-00 in report 42"
            );
        });
        let text = String::from_utf8(out.0.lock().expect("lock").clone()).expect("utf-8");
        assert!(text.contains("(***.456.789-**)"), "{text}");
        assert!(text.contains("***.654.321-** in report 42"), "{text}");
        assert!(
            !text.contains("12345678909") && !text.contains("987.654.321-00"),
            "{text}"
        );
    }
}
