//! W3C Trace Context (`traceparent`, <https://www.w3.org/TR/trace-context/>): the trace a request or a job run
//! belongs to. A request's `traceparent` is honoured (its trace goes on), a request without one starts a trace; the
//! context is held for the task doing the work ([`within`]) so that what it calls out to (a webhook delivery) sends
//! it on, and the log lines of the work carry its trace id.

use std::future::Future;

/// A position in a trace: the trace, the span (operation) within it, and whether the caller samples it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceContext {
    /// The trace's id (16 bytes; never zero).
    pub trace_id: u128,
    /// The span's id (8 bytes; never zero).
    pub span_id: u64,
    /// The `sampled` flag.
    pub sampled: bool,
}

/// The header's name.
pub const TRACEPARENT: &str = "traceparent";

impl TraceContext {
    /// Parses a `traceparent` value (`00-<32 hex>-<16 hex>-<2 hex>`); none for a malformed one, an all-zero id or
    /// the forbidden version `ff` (the specification says to start a new trace then). A later version's value is read
    /// by its first four fields.
    pub fn parse(value: &str) -> Option<Self> {
        let value = value.trim();
        let mut parts = value.splitn(5, '-');
        let (version, trace, span, flags) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let rest = parts.next();
        let hex =
            |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !hex(version, 2) || version == "ff" || !hex(trace, 32) || !hex(span, 16) || !hex(flags, 2) {
            return None;
        }
        if version == "00" && rest.is_some() {
            return None;
        }
        let trace_id = u128::from_str_radix(trace, 16).ok().filter(|t| *t != 0)?;
        let span_id = u64::from_str_radix(span, 16).ok().filter(|s| *s != 0)?;
        let flags = u8::from_str_radix(flags, 16).ok()?;
        Some(Self {
            trace_id,
            span_id,
            sampled: flags & 1 == 1,
        })
    }

    /// A new trace, sampled.
    pub fn new_root() -> Self {
        Self {
            trace_id: random_u128(),
            span_id: random_u64(),
            sampled: true,
        }
    }

    /// A new span in the same trace.
    pub fn child(&self) -> Self {
        Self {
            span_id: random_u64(),
            ..*self
        }
    }

    /// The `traceparent` value.
    pub fn header(&self) -> String {
        format!(
            "00-{:032x}-{:016x}-{:02x}",
            self.trace_id,
            self.span_id,
            u8::from(self.sampled)
        )
    }

    /// The trace id as 32 lowercase hexadecimal digits (as log lines and trace viewers show it).
    pub fn trace_id_hex(&self) -> String {
        format!("{:032x}", self.trace_id)
    }
}

fn random_u64() -> u64 {
    loop {
        // Never zero (an invalid id); the fallback only where the system has no randomness to give.
        let n = getrandom::u64().unwrap_or_else(|_| fallback());
        if n != 0 {
            return n;
        }
    }
}

fn random_u128() -> u128 {
    (u128::from(random_u64()) << 64) | u128::from(random_u64())
}

fn fallback() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

tokio::task_local! {
    static CURRENT: TraceContext;
}

/// Runs `work` within the trace context `ctx`.
pub async fn within<F: Future>(ctx: TraceContext, work: F) -> F::Output {
    CURRENT.scope(ctx, work).await
}

/// The trace context of the work running now, if any.
pub fn current() -> Option<TraceContext> {
    CURRENT.try_with(|c| *c).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceparent_is_read_and_written_back_the_same() {
        let v = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        let c = TraceContext::parse(v).expect("valid");
        assert_eq!(c.trace_id_hex(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert!(c.sampled);
        assert_eq!(c.header(), v);
        let child = c.child();
        assert_eq!(child.trace_id, c.trace_id);
        assert_ne!(child.span_id, c.span_id);
    }

    #[test]
    fn a_malformed_traceparent_starts_a_new_trace() {
        for bad in [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        ] {
            assert!(TraceContext::parse(bad).is_none(), "{bad:?}");
        }
        assert!(TraceContext::parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later").is_some());
    }
}
