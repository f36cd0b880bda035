//! Logging and traces: one `tracing` subscriber, filtered by `--log`, writing lines as text (coloured only on a
//! terminal) or as one JSON object per line (`--log-format json`) for log collectors, and, with the `otlp` feature
//! and `--otlp-endpoint`, exporting the spans over OTLP/HTTP. Every line passes through [`Scrubbing`], which masks the
//! CPFs in it (an error from the database can quote the row it refused), so logs never hold a whole CPF. The lines
//! written while a request or a job run is served carry its span's `trace_id` ([`trace_context`]).

use std::io::{IsTerminal, Write};
use tracing_subscriber::{EnvFilter, Layer, fmt::MakeWriter, layer::SubscriberExt};

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines; colours only when standard error is a terminal.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// What stays of the telemetry while the process runs: the trace exporter, flushed when dropped.
#[derive(Debug, Default)]
pub struct Telemetry {
    #[cfg(feature = "otlp")]
    provider: Option<opentelemetry_sdk::trace::SdkTracerProvider>,
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        #[cfg(feature = "otlp")]
        if let Some(p) = self.provider.take()
            && let Err(e) = p.shutdown()
        {
            eprintln!("traces not all exported: {e}");
        }
    }
}

/// Installs the subscriber on standard error; traces go to `otlp_endpoint` (an OTLP/HTTP collector's base URL,
/// `http://collector:4318`) when one is given. Keep the answer alive as long as the process runs.
pub fn init(filter: &str, format: LogFormat, otlp_endpoint: Option<&str>) -> anyhow::Result<Telemetry> {
    init_with_writer(
        filter,
        format,
        otlp_endpoint,
        std::io::stderr,
        std::io::stderr().is_terminal(),
    )
}

/// [`init`] writing to `writer` (tests read the lines back).
pub fn init_with_writer<W>(
    filter: &str,
    format: LogFormat,
    otlp_endpoint: Option<&str>,
    writer: W,
    ansi: bool,
) -> anyhow::Result<Telemetry>
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    let (dispatch, telemetry) = dispatch(filter, format, otlp_endpoint, writer, ansi)?;
    tracing::dispatcher::set_global_default(dispatch)?;
    Ok(telemetry)
}

/// The subscriber [`init_with_writer`] installs, not installed (a test installs it for its own thread). `filter`
/// (`--log`) chooses the log lines; the exported spans are chosen apart (`otlp::spans`), so a quiet log still
/// exports whole traces.
pub fn dispatch<W>(
    filter: &str,
    format: LogFormat,
    otlp_endpoint: Option<&str>,
    writer: W,
    ansi: bool,
) -> anyhow::Result<(tracing::Dispatch, Telemetry)>
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    let lines = tracing_subscriber::fmt::layer().with_writer(Scrubbing(writer));
    let lines = match format {
        LogFormat::Text => lines.with_ansi(ansi).boxed(),
        LogFormat::Json => lines.json().with_ansi(false).boxed(),
    };
    let registry = tracing_subscriber::registry().with(lines.with_filter(EnvFilter::try_new(filter)?));
    #[cfg(feature = "otlp")]
    {
        let (layer, provider) = match otlp_endpoint.map(str::trim).filter(|e| !e.is_empty()) {
            Some(endpoint) => {
                let (layer, provider) = otlp::layer(endpoint)?;
                (Some(layer.with_filter(otlp::spans())), Some(provider))
            }
            None => (None, None),
        };
        Ok((tracing::Dispatch::new(registry.with(layer)), Telemetry { provider }))
    }
    #[cfg(not(feature = "otlp"))]
    {
        if otlp_endpoint.is_some_and(|e| !e.trim().is_empty()) {
            anyhow::bail!(
                "--otlp-endpoint needs a build with the `otlp` feature (cargo build --release --features otlp)"
            );
        }
        Ok((tracing::Dispatch::new(registry), Telemetry::default()))
    }
}

/// The trace context of the work `span` stands for, and the span made its child: the caller's (`incoming`, from a
/// `traceparent`) trace goes on, else a new trace starts. With traces exported, the ids are the exported span's, so
/// the trace id in the log lines is the one the trace viewer shows; the span's `trace_id` field is set either way.
pub fn trace_context(
    span: &tracing::Span,
    incoming: Option<service::trace::TraceContext>,
) -> service::trace::TraceContext {
    #[cfg(feature = "otlp")]
    if let Some(ctx) = otlp::adopt(span, incoming) {
        span.record("trace_id", tracing::field::display(ctx.trace_id_hex()));
        return ctx;
    }
    let ctx = incoming.map_or_else(service::trace::TraceContext::new_root, |c| c.child());
    span.record("trace_id", tracing::field::display(ctx.trace_id_hex()));
    ctx
}

#[cfg(feature = "otlp")]
mod otlp {
    use opentelemetry::trace::{SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState, TracerProvider};
    use opentelemetry_sdk::trace::SdkTracerProvider;
    use tracing_opentelemetry::OpenTelemetrySpanExt;

    /// The layer exporting spans to `endpoint` in batches (from the Tokio runtime), and its provider.
    pub fn layer<S>(endpoint: &str) -> anyhow::Result<(impl tracing_subscriber::Layer<S> + use<S>, SdkTracerProvider)>
    where
        S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    {
        use opentelemetry_otlp::WithExportConfig;
        let url = format!("{}/v1/traces", endpoint.trim_end_matches('/'));
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_endpoint(url)
            .build()?;
        let processor = opentelemetry_sdk::trace::span_processor_with_async_runtime::BatchSpanProcessor::builder(
            exporter,
            opentelemetry_sdk::runtime::Tokio,
        )
        .build();
        let provider = SdkTracerProvider::builder()
            .with_span_processor(processor)
            .with_resource(
                opentelemetry_sdk::Resource::builder()
                    .with_service_name("fomento")
                    .build(),
            )
            .build();
        let tracer = provider.tracer("fomento");
        Ok((tracing_opentelemetry::layer().with_tracer(tracer), provider))
    }

    /// The spans exported: every span and event at `info` or above, except a SQL statement's span (`sea_orm`'s)
    /// outside a request or a job run (at start-up, in a background task), which would be a trace of its own.
    pub fn spans<S>() -> impl tracing_subscriber::layer::Filter<S>
    where
        S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    {
        tracing_subscriber::filter::dynamic_filter_fn(|meta, cx| {
            *meta.level() <= tracing::Level::INFO
                && (!meta.target().starts_with("sea_orm") || (meta.is_span() && cx.lookup_current().is_some()))
        })
    }

    /// With the OpenTelemetry layer installed: `span` made the child of `incoming` (a remote parent), and the ids of
    /// the span it exports. None without the layer.
    pub fn adopt(
        span: &tracing::Span,
        incoming: Option<service::trace::TraceContext>,
    ) -> Option<service::trace::TraceContext> {
        if let Some(c) = incoming {
            let parent = SpanContext::new(
                TraceId::from_bytes(c.trace_id.to_be_bytes()),
                SpanId::from_bytes(c.span_id.to_be_bytes()),
                if c.sampled {
                    TraceFlags::SAMPLED
                } else {
                    TraceFlags::default()
                },
                true,
                TraceState::default(),
            );
            span.set_parent(opentelemetry::Context::new().with_remote_span_context(parent))
                .ok()?;
        }
        let cx = span.context();
        let sc = cx.span().span_context().clone();
        sc.is_valid().then(|| service::trace::TraceContext {
            trace_id: u128::from_be_bytes(sc.trace_id().to_bytes()),
            span_id: u64::from_be_bytes(sc.span_id().to_bytes()),
            sampled: sc.is_sampled(),
        })
    }
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
