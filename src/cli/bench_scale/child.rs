//! Running one measured child process: its wall time and its own peak resident memory.
//!
//! Each learner run is a child so that its peak RSS is its own, not the benchmark's. The
//! peak is the child's `VmHWM` (`/proc/<pid>/status`), read while it runs: the high-water
//! mark of its own address space since `exec`. Not `ru_maxrss` from `wait4`: Linux carries
//! the parent's high-water mark into it at `exec` (the address space replaced is the
//! parent's, or a copy of it), so every child seemed to take at least what the benchmark
//! process ever took (92 MB after replicating ×10). `ru_maxrss` is used only for a child
//! that ended before its memory was first read.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

/// What a finished child left behind.
pub struct Finished {
    pub stdout: Vec<u8>,
    pub wall: Duration,
    /// Peak resident set size of the child, in bytes.
    pub peak_rss: u64,
}

/// Runs `cmd` to completion (killing it after `timeout`); fails when it exits non-zero,
/// with its stderr in the message.
pub fn run(mut cmd: Command, what: &str, timeout: Duration) -> anyhow::Result<Finished> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .with_context(|| format!("starting {what} ({cmd:?})"))?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let (status, peak_rss) =
        wait_with_rusage(&mut child, timeout).with_context(|| format!("waiting for {what}"))?;
    let wall = started.elapsed();
    let stdout = out.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    match status {
        Some(0) => Ok(Finished {
            stdout,
            wall,
            peak_rss,
        }),
        Some(code) => bail!("{what} exited with code {code}: {}", tail(&stderr)),
        None => bail!(
            "{what} was killed (by a signal, or after the {} s timeout): {}",
            timeout.as_secs(),
            tail(&stderr)
        ),
    }
}

fn tail(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().collect();
    lines[lines.len().saturating_sub(8)..].join("\n")
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// Reaps `child` with `wait4` (polling, so a timeout can kill it): its exit code (`None`
/// when killed by a signal) and its peak RSS in bytes (see the module docs).
fn wait_with_rusage(child: &mut Child, timeout: Duration) -> anyhow::Result<(Option<i32>, u64)> {
    let pid = libc::pid_t::try_from(child.id()).context("child pid out of range")?;
    let deadline = Instant::now() + timeout;
    let mut killed = false;
    let mut high_water: Option<u64> = None;
    loop {
        // Before `wait4`: once reaped, the pid may be another process's.
        if let Some(hwm) = vm_hwm(pid) {
            high_water = Some(high_water.map_or(hwm, |h| h.max(hwm)));
        }
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero rusage is a valid value of this plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our own unreaped child; both pointers are valid for the call.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r < 0 {
            return Err(std::io::Error::last_os_error()).context("wait4");
        }
        if r == pid {
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            // Linux reports ru_maxrss in KiB.
            let rss = high_water.unwrap_or(u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024);
            return Ok((code, rss));
        }
        if !killed && Instant::now() >= deadline {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `VmHWM` of `pid` in bytes: the peak resident set of its current address space (`None`
/// once it has exited, or off Linux).
fn vm_hwm(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child's peak is its own: not the high-water mark of the (larger) process that
    /// started it.
    #[test]
    fn a_small_child_does_not_inherit_the_parents_peak() {
        // Touch 200 MB here, so this process's high-water mark is well above a shell's.
        let ballast = vec![1u8; 200 << 20];
        std::hint::black_box(&ballast);
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 0.3"]);
        let done = run(cmd, "sh", Duration::from_secs(10)).expect("sh runs");
        drop(ballast);
        assert!(
            done.peak_rss < 100 << 20,
            "a shell's peak RSS of {} bytes",
            done.peak_rss
        );
    }
}
