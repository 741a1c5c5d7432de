//! The politeness delay between request starts: a default that fits where the endpoint is,
//! and adaptation to what the endpoint says.
//!
//! - **Host default.** A server on this machine or on a private network is the user's own: no
//!   delay (a 50 ms delay capped learners at 20 queries/s, 73× slower than without, on a
//!   server on 127.0.0.1). Any other host gets [`PUBLIC_DEFAULT`]. An explicit value wins.
//! - **Adaptive.** A `429`, a `503` or a `Retry-After` header doubles the delay (at least to
//!   [`MIN_RAISE`], at most to the ceiling) and holds every request start until the
//!   `Retry-After` time; a run of [`FAST_RUN`] fast successful answers in a row halves the
//!   excess over the configured delay, so it returns to it once the endpoint copes again.
//!   The configured delay is the floor: adaptation never goes below it.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

pub use super::PolitenessReport;

/// The default delay for hosts that are neither loopback nor on a private network.
pub const PUBLIC_DEFAULT: Duration = Duration::from_millis(50);
/// The smallest delay a throttling answer raises a zero delay to.
pub const MIN_RAISE: Duration = Duration::from_millis(50);
/// Fast successful answers in a row after which the delay is lowered.
pub const FAST_RUN: u32 = 8;
/// An answer within this time counts as fast.
pub const FAST_ANSWER: Duration = Duration::from_secs(1);

/// Whether a URL host (as `reqwest::Url::host_str` gives it, IPv6 in brackets) is this
/// machine or a private or link-local network: `localhost`, `*.localhost`, 127.0.0.0/8, ::1,
/// 10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10 (and those IPv4 addresses
/// mapped into IPv6).
pub fn is_local_host(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<IpAddr>() {
        Ok(IpAddr::V4(ip)) => local_v4(ip),
        Ok(IpAddr::V6(ip)) => local_v6(ip),
        Err(_) => false,
    }
}

fn local_v4(ip: Ipv4Addr) -> bool {
    ip.is_loopback() || ip.is_private() || ip.is_link_local()
}

fn local_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return local_v4(v4);
    }
    let first = ip.segments()[0];
    ip.is_loopback() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
}

/// The default politeness delay for an endpoint URL: zero for local and private hosts,
/// [`PUBLIC_DEFAULT`] otherwise (and for URLs that do not parse: the polite choice).
pub fn default_for_endpoint(endpoint: &str) -> Duration {
    let local = reqwest::Url::parse(endpoint)
        .ok()
        .and_then(|u| u.host_str().map(is_local_host))
        .unwrap_or(false);
    if local {
        Duration::ZERO
    } else {
        PUBLIC_DEFAULT
    }
}

/// The adaptive delay shared by every request of one backend.
#[derive(Debug)]
pub(crate) struct Politeness {
    floor: Duration,
    ceiling: Duration,
    delay_ns: AtomicU64,
    fast_streak: AtomicU32,
    waited_ns: AtomicU64,
    next_start: Mutex<Instant>,
}

/// Why a request may not start: its turn comes after the deadline.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct PastDeadline;

impl Politeness {
    /// `floor` is the configured delay, `ceiling` the most adaptation may raise it to.
    pub(crate) fn new(floor: Duration, ceiling: Duration) -> Self {
        Politeness {
            floor,
            ceiling: ceiling.max(floor),
            delay_ns: AtomicU64::new(nanos(floor)),
            fast_streak: AtomicU32::new(0),
            waited_ns: AtomicU64::new(0),
            next_start: Mutex::new(Instant::now()),
        }
    }

    /// The delay in force now.
    pub(crate) fn current(&self) -> Duration {
        Duration::from_nanos(self.delay_ns.load(Ordering::Relaxed))
    }

    /// Time spent waiting for a turn so far.
    pub(crate) fn waited(&self) -> Duration {
        Duration::from_nanos(self.waited_ns.load(Ordering::Relaxed))
    }

    /// Waits for this request's turn (its start is at least the current delay after the
    /// previous one's, and not before a `Retry-After` hold). A turn past `deadline` is not
    /// waited for: the slot is given back and `PastDeadline` returned at once.
    pub(crate) async fn wait_turn(&self, deadline: Option<Instant>) -> Result<(), PastDeadline> {
        let start = {
            let mut next = self.next_start.lock().await;
            let now = Instant::now();
            let start = (*next).max(now);
            if deadline.is_some_and(|d| start >= d) {
                return Err(PastDeadline);
            }
            *next = start + self.current();
            start
        };
        let wait = start.saturating_duration_since(Instant::now());
        if !wait.is_zero() {
            self.waited_ns.fetch_add(nanos(wait), Ordering::Relaxed);
            tokio::time::sleep_until(start.into()).await;
        }
        Ok(())
    }

    /// The endpoint asked to slow down (429, 503, `Retry-After`): double the delay and hold
    /// every start until `retry_after` has passed.
    pub(crate) async fn throttled(&self, retry_after: Option<Duration>) {
        self.fast_streak.store(0, Ordering::Relaxed);
        let raised = self
            .current()
            .saturating_mul(2)
            .max(MIN_RAISE)
            .min(self.ceiling);
        self.delay_ns.store(nanos(raised), Ordering::Relaxed);
        if let Some(hold) = retry_after {
            let until = Instant::now() + hold.min(self.ceiling);
            let mut next = self.next_start.lock().await;
            *next = (*next).max(until);
        }
    }

    /// A successful answer that took `took`: fast ones in a row bring the delay back down.
    pub(crate) fn answered(&self, took: Duration) {
        if took > FAST_ANSWER {
            self.fast_streak.store(0, Ordering::Relaxed);
            return;
        }
        if self.fast_streak.fetch_add(1, Ordering::Relaxed) + 1 < FAST_RUN {
            return;
        }
        self.fast_streak.store(0, Ordering::Relaxed);
        let current = self.current();
        if current > self.floor {
            let excess = (current - self.floor) / 2;
            // Below a millisecond of excess the delay is back at its floor.
            let lowered = if excess < Duration::from_millis(1) {
                self.floor
            } else {
                self.floor + excess
            };
            self.delay_ns.store(nanos(lowered), Ordering::Relaxed);
        }
    }
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_and_private_hosts_are_recognised() {
        for host in [
            "localhost",
            "LOCALHOST.",
            "sparql.localhost",
            "127.0.0.1",
            "127.3.4.5",
            "[::1]",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.10",
            "169.254.3.4",
            "[fc00::1]",
            "[fd12:3456::1]",
            "[fe80::1]",
            "[::ffff:192.168.0.1]",
        ] {
            assert!(is_local_host(host), "{host} should be local");
        }
        for host in [
            "dbpedia.org",
            "localhost.example.org",
            "8.8.8.8",
            "172.32.0.1",
            "172.15.255.255",
            "192.169.0.1",
            "[2001:db8::1]",
            "[::ffff:8.8.8.8]",
            "11.0.0.1",
        ] {
            assert!(!is_local_host(host), "{host} should not be local");
        }
    }

    #[test]
    fn endpoint_defaults_follow_the_host() {
        assert_eq!(
            default_for_endpoint("http://127.0.0.1:7878/query"),
            Duration::ZERO
        );
        assert_eq!(
            default_for_endpoint("http://[::1]:7878/query"),
            Duration::ZERO
        );
        assert_eq!(
            default_for_endpoint("https://user:pw@localhost/sparql"),
            Duration::ZERO
        );
        assert_eq!(
            default_for_endpoint("https://dbpedia.org/sparql"),
            PUBLIC_DEFAULT
        );
        assert_eq!(default_for_endpoint("not a url"), PUBLIC_DEFAULT);
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    }

    #[test]
    fn throttling_doubles_within_bounds_and_fast_answers_bring_it_back() {
        let rt = runtime();
        let p = Politeness::new(Duration::ZERO, Duration::from_millis(300));
        rt.block_on(p.throttled(None));
        assert_eq!(p.current(), MIN_RAISE);
        rt.block_on(p.throttled(None));
        assert_eq!(p.current(), Duration::from_millis(100));
        for _ in 0..5 {
            rt.block_on(p.throttled(None));
        }
        assert_eq!(p.current(), Duration::from_millis(300), "bounded");
        // Slow answers do not lower it; a run of fast ones halves it, down to the floor.
        for _ in 0..FAST_RUN * 2 {
            p.answered(Duration::from_secs(5));
        }
        assert_eq!(p.current(), Duration::from_millis(300));
        for _ in 0..FAST_RUN {
            p.answered(Duration::from_millis(1));
        }
        assert_eq!(p.current(), Duration::from_millis(150));
        for _ in 0..FAST_RUN * 20 {
            p.answered(Duration::from_millis(1));
        }
        assert_eq!(p.current(), Duration::ZERO);
    }

    #[test]
    fn the_configured_delay_is_the_floor() {
        let rt = runtime();
        let p = Politeness::new(Duration::from_millis(40), Duration::from_secs(1));
        rt.block_on(p.throttled(None));
        assert_eq!(p.current(), Duration::from_millis(80));
        for _ in 0..FAST_RUN * 20 {
            p.answered(Duration::ZERO);
        }
        assert_eq!(p.current(), Duration::from_millis(40));
    }

    #[test]
    fn retry_after_holds_the_next_start_and_a_turn_past_the_deadline_is_refused() {
        let rt = runtime();
        let p = Politeness::new(Duration::ZERO, Duration::from_secs(10));
        rt.block_on(p.throttled(Some(Duration::from_secs(5))));
        let deadline = Instant::now() + Duration::from_secs(1);
        let t0 = Instant::now();
        assert_eq!(rt.block_on(p.wait_turn(Some(deadline))), Err(PastDeadline));
        assert!(
            t0.elapsed() < Duration::from_secs(1),
            "refused without waiting"
        );
        assert_eq!(p.waited(), Duration::ZERO);
    }
}
