//! Who the client is behind a reverse proxy: `X-Forwarded-For` and `X-Forwarded-Proto` are read only from a peer
//! the operator named as a trusted proxy (`--trusted-proxy`); from anybody else they are the client's own words and
//! ignored, and the peer's address is the client's.

use axum::http::HeaderMap;
use std::net::IpAddr;

/// A network of trusted proxies: `10.0.0.0/8`, `2001:db8::/32`, or one address (`192.0.2.7`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustedProxy(ipnet::IpNet);

impl std::str::FromStr for TrustedProxy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        s.parse::<ipnet::IpNet>()
            .map(|n| n.trunc())
            .or_else(|_| s.parse::<IpAddr>().map(ipnet::IpNet::from))
            .map(Self)
            .map_err(|_| format!("{s:?} is not a network (CIDR, as 10.0.0.0/8) nor an address"))
    }
}

/// The proxies whose forwarding headers are believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<TrustedProxy>);

/// The most entries of `X-Forwarded-For` read, from the right: as many proxies as any deployment chains.
const MOST_HOPS: usize = 16;
/// The longest entry that can be an address (an IPv6 address with a zone, in brackets, with a port).
const LONGEST_ENTRY: usize = 64;

impl TrustedProxies {
    /// These proxies.
    pub fn new(proxies: Vec<TrustedProxy>) -> Self {
        Self(proxies)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|p| p.0.contains(&ip))
    }

    /// The client's address: the peer's, unless the peer is a trusted proxy; then the right-most address of
    /// `X-Forwarded-For` that is not itself a trusted proxy (the left-most when all are). An entry that is not an
    /// address (or a list past [`MOST_HOPS`] trusted entries) makes the header worthless: the peer's address then.
    pub fn client(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> Option<IpAddr> {
        let peer = peer.map(|p| p.to_canonical());
        let Some(p) = peer.filter(|p| self.trusts(*p)) else {
            return peer;
        };
        let mut entries = headers
            .get_all("x-forwarded-for")
            .iter()
            .rev()
            .flat_map(|v| v.to_str().unwrap_or("?").rsplit(','));
        let mut client = p;
        for _ in 0..MOST_HOPS {
            let Some(entry) = entries.next() else {
                return Some(client);
            };
            let Some(ip) = address(entry) else {
                return peer;
            };
            client = ip;
            if !self.trusts(ip) {
                return Some(ip);
            }
        }
        peer
    }

    /// Whether the client reached the first proxy over HTTPS: the right-most `X-Forwarded-Proto` says `https`, and the
    /// peer is a trusted proxy.
    pub fn https(&self, peer: Option<IpAddr>, headers: &HeaderMap) -> bool {
        peer.is_some_and(|p| self.trusts(p))
            && headers
                .get_all("x-forwarded-proto")
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.rsplit(',').next())
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
    }
}

/// An entry of `X-Forwarded-For` as an address: `192.0.2.7`, `2001:db8::1`, `192.0.2.7:4711`, `[2001:db8::1]:4711`.
fn address(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    if entry.len() > LONGEST_ENTRY {
        return None;
    }
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
        .map(|ip| ip.to_canonical())
}

/// Whether the request reached Fomento over HTTPS, as its trusted proxy says; carried with the request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ViaHttps(pub bool);

#[cfg(test)]
mod tests {
    use super::*;

    fn proxies(list: &[&str]) -> TrustedProxies {
        TrustedProxies::new(list.iter().map(|p| p.parse().expect("a network")).collect())
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().expect("a header value"));
        }
        h
    }

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().expect("an address"))
    }

    #[test]
    fn forwarded_for_is_read_only_from_a_trusted_proxy_and_from_the_right() {
        let peer = ip("10.0.0.5");
        let trusted = proxies(&["10.0.0.0/8", "192.0.2.1"]);
        for (why, list, headers, expected) in [
            (
                "no proxy configured: the peer",
                proxies(&[]),
                &["203.0.113.9"][..],
                "10.0.0.5",
            ),
            (
                "a peer not trusted: the peer",
                proxies(&["192.0.2.1"]),
                &["203.0.113.9"],
                "10.0.0.5",
            ),
            (
                "the one address forwarded",
                trusted.clone(),
                &["203.0.113.9"],
                "203.0.113.9",
            ),
            (
                "the right-most not trusted",
                trusted.clone(),
                &["198.51.100.7, 203.0.113.9"],
                "203.0.113.9",
            ),
            (
                "trusted hops skipped",
                trusted.clone(),
                &["198.51.100.7, 203.0.113.9, 10.1.1.1"],
                "203.0.113.9",
            ),
            (
                "over several headers",
                trusted.clone(),
                &["203.0.113.9", "192.0.2.1"],
                "203.0.113.9",
            ),
            ("with a port", trusted.clone(), &["[2001:db8::1]:4711"], "2001:db8::1"),
            (
                "every hop trusted: the left-most",
                trusted.clone(),
                &["10.9.9.9, 192.0.2.1"],
                "10.9.9.9",
            ),
            ("no header: the peer", trusted.clone(), &[], "10.0.0.5"),
            (
                "not an address: the peer",
                trusted.clone(),
                &["198.51.100.7, x<script>"],
                "10.0.0.5",
            ),
            (
                "forged on the left, ignored",
                trusted.clone(),
                &["not-an-ip, 203.0.113.9"],
                "203.0.113.9",
            ),
        ] {
            assert_eq!(list.client(peer, &forwarded(headers)), ip(expected), "{why}");
        }
        let long = format!("{}, 203.0.113.9", "1".repeat(60_000));
        assert_eq!(
            trusted.client(peer, &forwarded(&[&long])),
            ip("203.0.113.9"),
            "a long header"
        );
        let long = "1".repeat(60_000);
        assert_eq!(
            trusted.client(peer, &forwarded(&[&long])),
            peer,
            "a long entry is no address"
        );
        let hops = vec!["10.0.0.1"; 40].join(",");
        assert_eq!(trusted.client(peer, &forwarded(&[&hops])), peer, "past the hops read");
        assert_eq!(
            trusted.client(ip("::ffff:10.0.0.5"), &forwarded(&["203.0.113.9"])),
            ip("203.0.113.9"),
            "an IPv4 peer on an IPv6 socket"
        );
    }

    #[test]
    fn forwarded_proto_is_believed_only_from_a_trusted_proxy() {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-proto", "https".parse().expect("a value"));
        assert!(proxies(&["127.0.0.1"]).https(ip("127.0.0.1"), &h));
        assert!(!proxies(&[]).https(ip("127.0.0.1"), &h));
        assert!(!proxies(&["10.0.0.0/8"]).https(ip("127.0.0.1"), &h));
        assert!(!proxies(&["127.0.0.1"]).https(ip("127.0.0.1"), &HeaderMap::new()));
    }

    #[test]
    fn a_trusted_proxy_is_a_network_or_an_address() {
        assert!("10.0.0.0/8".parse::<TrustedProxy>().is_ok());
        assert!("10.1.2.3/8".parse::<TrustedProxy>().is_ok());
        assert!("2001:db8::/32".parse::<TrustedProxy>().is_ok());
        assert!("192.0.2.7".parse::<TrustedProxy>().is_ok());
        assert!("example.com".parse::<TrustedProxy>().is_err());
        assert!("10.0.0.0/33".parse::<TrustedProxy>().is_err());
    }
}
