//! What both benchmark binaries share: each phase runs in a child process (this binary with `phase …`), which
//! prints its result and its peak memory last, so each phase's peak is its own.

use anyhow::{Context, bail};
use std::process::Command;

/// Peak resident memory of this process, in KiB (Linux).
pub fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Runs `phase ARGS` in a child process: what it printed before its peak memory, and that peak in KiB.
pub fn child(args: &[String]) -> anyhow::Result<(String, u64)> {
    let out = Command::new(std::env::current_exe()?)
        .arg("phase")
        .args(args)
        .output()?;
    if !out.status.success() {
        bail!("phase {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let text = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    let (value, kib) = text.rsplit_once(' ').context("the phase's output")?;
    Ok((value.to_owned(), kib.parse()?))
}
