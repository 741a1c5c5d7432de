//! `--audit-log FILE|-`: one JSON line per request, appended to a file or written to
//! stderr. A line holds who (address, token name: never the token), what (method, route,
//! scope), how it went (status, duration, bytes in and out) and, for an update, the SHA-256
//! of its text and the net change in the number of quads.

use std::io::Write;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde::Serialize;

/// One request.
#[derive(Serialize)]
pub struct Record<'a> {
    pub time: String,
    pub client: &'a str,
    /// The token's name in the tokens file (a trailing comment, or `line N`).
    pub token: Option<&'a str>,
    pub method: &'a str,
    pub route: &'a str,
    pub scope: Option<&'static str>,
    pub status: u16,
    pub duration_ms: f64,
    pub bytes_in: Option<u64>,
    pub bytes_out: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update_sha256: Option<&'a str>,
    /// Quads in the store after the update less before (`0` for a failed update, which
    /// changes nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quads_changed: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<&'static str>,
}

pub struct AuditLog {
    out: Mutex<Box<dyn Write + Send>>,
}

impl AuditLog {
    /// `-` is stderr; a file is created or appended to.
    pub fn open(target: &str) -> anyhow::Result<AuditLog> {
        let out: Box<dyn Write + Send> = if target == "-" {
            Box::new(std::io::stderr())
        } else {
            Box::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(target)
                    .with_context(|| format!("--audit-log {target}: cannot open it"))?,
            )
        };
        Ok(AuditLog {
            out: Mutex::new(out),
        })
    }

    /// Writes the record as one line; a failed write is reported on stderr, not to the
    /// client.
    pub fn write(&self, record: &Record<'_>) {
        let Ok(mut line) = serde_json::to_string(record) else {
            return;
        };
        line.push('\n');
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(e) = out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
            eprintln!("warning: --audit-log: cannot write: {e}");
        }
    }
}

/// Now in RFC 3339, UTC, to the millisecond (`2026-12-07T10:11:12.345Z`).
pub fn now_rfc3339() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    rfc3339(since.as_secs() as i64, since.subsec_millis())
}

fn rfc3339(secs: i64, millis: u32) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Days to a civil date (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_rfc3339_utc() {
        assert_eq!(rfc3339(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400, 7), "2000-02-29T00:00:00.007Z");
        assert_eq!(rfc3339(1_798_761_599, 999), "2026-12-31T23:59:59.999Z");
    }
}
