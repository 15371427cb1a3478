//! Who is asking, as the pages' limits count it: the connection's own peer address, or, when that
//! peer is a proxy the operator trusts (`ARBITER_TRUSTED_PROXIES`), the address the proxy
//! forwarded in `X-Forwarded-For`. Anyone can write that header, so it is read only from a
//! trusted peer, and only its right-most address not itself a trusted proxy counts: the one the
//! operator's own proxy wrote. What a client put further left is never believed.

use axum::http::HeaderMap;
use std::fmt;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};

/// One client as the limits count it: an IPv4 address, or an IPv6 address's /64 network (what
/// one subscriber is usually given: counting single IPv6 addresses would let one client pass as
/// billions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct ClientKey(IpAddr);

impl ClientKey {
    pub(super) fn of(address: IpAddr) -> ClientKey {
        match address.to_canonical() {
            IpAddr::V6(v6) => {
                let [a, b, c, d, ..] = v6.segments();
                ClientKey(IpAddr::V6(Ipv6Addr::new(a, b, c, d, 0, 0, 0, 0)))
            }
            v4 => ClientKey(v4),
        }
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// The client's address: `peer`'s own, unless `peer` is one of `trusted`; then the right-most
/// address of `X-Forwarded-For` that is not itself a trusted proxy (the left-most, when every
/// one is). A forwarded entry that is not an address ends the walk: what lies left of it cannot
/// be told apart from a client's own words, so the proxy's address counts instead.
pub(super) fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    let peer = peer.to_canonical();
    if !is_trusted(peer, trusted) {
        return peer;
    }
    // Several header lines are one list, in order (RFC 9110, 5.3).
    let mut entries = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        let Ok(text) = value.to_str() else {
            return peer;
        };
        entries.extend(text.split(',').map(str::trim).filter(|entry| !entry.is_empty()));
    }
    let mut leftmost = None;
    for entry in entries.iter().rev() {
        let Some(address) = parse_entry(entry) else {
            return peer;
        };
        if !is_trusted(address, trusted) {
            return address;
        }
        leftmost = Some(address);
    }
    leftmost.unwrap_or(peer)
}

fn is_trusted(address: IpAddr, trusted: &[IpAddr]) -> bool {
    trusted.iter().any(|proxy| proxy.to_canonical() == address)
}

/// An entry as proxies write them: `203.0.113.7`, `2001:db8::1`, and with a port
/// `203.0.113.7:4711` or `[2001:db8::1]:4711`.
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim_matches('"');
    if let Ok(address) = entry.parse::<IpAddr>() {
        return Some(address.to_canonical());
    }
    if let Ok(socket) = entry.parse::<SocketAddr>() {
        return Some(socket.ip().to_canonical());
    }
    entry
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .and_then(|inner| inner.parse::<IpAddr>().ok())
        .map(|address| address.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(lines: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append("x-forwarded-for", HeaderValue::from_str(line).unwrap());
        }
        headers
    }

    #[test]
    fn a_peer_not_trusted_is_the_client_whatever_it_forwards() {
        let headers = forwarded(&["203.0.113.7"]);
        assert_eq!(client_address(ip("198.51.100.1"), &headers, &[]), ip("198.51.100.1"));
        assert_eq!(
            client_address(ip("198.51.100.1"), &headers, &[ip("127.0.0.1")]),
            ip("198.51.100.1")
        );
    }

    #[test]
    fn a_trusted_proxy_forwards_the_right_most_address_not_itself_a_proxy() {
        let proxies = [ip("127.0.0.1"), ip("10.0.0.2")];
        let peer = ip("127.0.0.1");
        // What a client wrote itself stands left of what the proxies added: never believed.
        let headers = forwarded(&["198.51.100.99, 203.0.113.7, 10.0.0.2"]);
        assert_eq!(client_address(peer, &headers, &proxies), ip("203.0.113.7"));
        // Two header lines are one list.
        let headers = forwarded(&["198.51.100.99", "203.0.113.8"]);
        assert_eq!(client_address(peer, &headers, &proxies), ip("203.0.113.8"));
        // Ports and brackets, as some proxies write them.
        for entry in [
            "203.0.113.9:4711",
            "[2001:db8::1]:4711",
            "[2001:db8::1]",
            "\"203.0.113.9\"",
        ] {
            let expected = if entry.contains("2001") {
                ip("2001:db8::1")
            } else {
                ip("203.0.113.9")
            };
            assert_eq!(
                client_address(peer, &forwarded(&[entry]), &proxies),
                expected,
                "{entry}"
            );
        }
        // No header: the proxy itself. Only proxies: the left-most.
        assert_eq!(client_address(peer, &HeaderMap::new(), &proxies), peer);
        let headers = forwarded(&["10.0.0.2, 127.0.0.1"]);
        assert_eq!(client_address(peer, &headers, &proxies), ip("10.0.0.2"));
    }

    #[test]
    fn a_forwarded_entry_that_is_no_address_counts_the_proxy_instead() {
        let proxies = [ip("127.0.0.1")];
        let headers = forwarded(&["203.0.113.7, unknown"]);
        assert_eq!(client_address(ip("127.0.0.1"), &headers, &proxies), ip("127.0.0.1"));
    }

    #[test]
    fn an_ipv4_peer_seen_through_an_ipv6_socket_is_the_same_peer() {
        let proxies = [ip("127.0.0.1")];
        let headers = forwarded(&["203.0.113.7"]);
        assert_eq!(
            client_address(ip("::ffff:127.0.0.1"), &headers, &proxies),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn an_ipv6_client_is_counted_by_its_64_network() {
        let one = ClientKey::of(ip("2001:db8:1:2:aaaa::1"));
        let same = ClientKey::of(ip("2001:db8:1:2:ffff::9"));
        let other = ClientKey::of(ip("2001:db8:1:3::1"));
        assert_eq!(one, same);
        assert_ne!(one, other);
        assert_eq!(one.to_string(), "2001:db8:1:2::/64");
        assert_eq!(
            ClientKey::of(ip("::ffff:203.0.113.7")),
            ClientKey::of(ip("203.0.113.7"))
        );
        assert_ne!(ClientKey::of(ip("127.0.0.2")), ClientKey::of(ip("127.0.0.3")));
    }
}
