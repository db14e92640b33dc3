//! Who sent a request. Behind a reverse proxy every connection comes from the proxy, so the
//! visitor's address is taken from `X-Forwarded-For` or `Forwarded` — but only when the
//! connection comes from a proxy listed in `TRUSTED_PROXIES`: anyone else could write those
//! headers. The same rule decides whether a request came over HTTPS. Rate limits key IPv6
//! clients by their /64, the block one home or phone is given.

use actix_web::http::header;
use actix_web::HttpRequest;
use ipnet::IpNet;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The proxies whose forwarding headers are believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proxies {
    nets: Vec<IpNet>,
}

impl Proxies {
    /// Addresses or CIDRs separated by commas or spaces: `127.0.0.1, 10.0.0.0/8, ::1`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let nets = text
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<IpNet>()
                    .or_else(|_| s.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("'{s}' is neither an address nor a CIDR block"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Proxies { nets })
    }

    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.nets.iter().any(|n| n.contains(&ip))
    }
}

/// An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) is that IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// One `for=` value of `Forwarded`, or one entry of `X-Forwarded-For`.
fn parse_forwarded_address(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    text.parse()
        .ok()
        .or_else(|| text.rsplit_once(':')?.0.parse().ok())
}

/// The addresses a request passed through, nearest last.
fn forwarded_chain(req: &HttpRequest) -> Vec<IpAddr> {
    let headers = req.headers();
    if let Some(value) = headers.get(header::FORWARDED).and_then(|v| v.to_str().ok()) {
        return value
            .split(',')
            .filter_map(|hop| {
                hop.split(';').find_map(|pair| {
                    let (key, value) = pair.split_once('=')?;
                    key.trim()
                        .eq_ignore_ascii_case("for")
                        .then(|| parse_forwarded_address(value))?
                })
            })
            .collect();
    }
    headers
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(parse_forwarded_address)
        .collect()
}

fn peer(req: &HttpRequest) -> IpAddr {
    req.peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |a| canonical(a.ip()))
}

/// The visitor's address: the peer, or — when the peer is a trusted proxy — the nearest
/// address in the forwarding chain that is not itself a trusted proxy.
pub fn address(req: &HttpRequest, proxies: &Proxies) -> IpAddr {
    let peer = peer(req);
    if !proxies.trusts(peer) {
        return peer;
    }
    forwarded_chain(req)
        .into_iter()
        .rev()
        .map(canonical)
        .find(|ip| !proxies.trusts(*ip))
        .unwrap_or(peer)
}

/// What rate limits count: the address, or an IPv6 address's /64 network.
pub fn key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let segments = v6.segments();
            IpAddr::V6(Ipv6Addr::new(
                segments[0],
                segments[1],
                segments[2],
                segments[3],
                0,
                0,
                0,
                0,
            ))
        }
        v4 => v4,
    }
}

/// Whether the visitor reached the site over HTTPS: always with `FORCE_HTTPS`, otherwise
/// when a trusted proxy says so (the sidecar itself speaks plain HTTP).
pub fn is_https(req: &HttpRequest, proxies: &Proxies, force: bool) -> bool {
    if force {
        return true;
    }
    if !proxies.trusts(peer(req)) {
        return false;
    }
    let headers = req.headers();
    let forwarded_proto = headers
        .get(header::FORWARDED)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| {
            v.split([',', ';'])
                .filter_map(|pair| pair.split_once('='))
                .find(|(k, _)| k.trim().eq_ignore_ascii_case("proto"))
                .map(|(_, v)| v.trim().trim_matches('"').to_ascii_lowercase())
        });
    let proto = forwarded_proto.or_else(|| {
        headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .map(|v| v.trim().to_ascii_lowercase())
    });
    proto.as_deref() == Some("https")
}

/// Whether a request that changes something comes from this site: browsers send `Origin`
/// on such requests; without one (curl, an old browser) it passes, as the issue allows.
pub fn same_origin(req: &HttpRequest, https: bool) -> bool {
    let Some(origin) = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
    else {
        return true;
    };
    let Some(host) = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
    else {
        return false;
    };
    let scheme = if https { "https" } else { "http" };
    origin.eq_ignore_ascii_case(&format!("{scheme}://{host}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;
    use std::net::SocketAddr;

    fn from(peer: &str) -> TestRequest {
        TestRequest::default().peer_addr(peer.parse::<SocketAddr>().expect("socket address"))
    }

    #[test]
    fn forwarding_headers_count_only_from_trusted_proxies() {
        let proxies = Proxies::parse("127.0.0.1, 10.0.0.0/8").expect("parses");
        let forged = from("203.0.113.9:5000")
            .insert_header(("x-forwarded-for", "1.1.1.1"))
            .to_http_request();
        assert_eq!(address(&forged, &proxies).to_string(), "203.0.113.9");
        let proxied = from("127.0.0.1:5000")
            .insert_header(("x-forwarded-for", "198.51.100.7, 10.1.2.3"))
            .to_http_request();
        assert_eq!(address(&proxied, &proxies).to_string(), "198.51.100.7");
        let standard = from("10.0.0.2:5000")
            .insert_header((header::FORWARDED, "for=\"[2001:db8::1]:443\";proto=https"))
            .to_http_request();
        assert_eq!(address(&standard, &proxies).to_string(), "2001:db8::1");
        assert!(is_https(&standard, &proxies, false));
        assert!(!is_https(&forged, &proxies, false));
        assert!(is_https(&forged, &proxies, true), "FORCE_HTTPS");
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().expect("ip");
        assert_eq!(key(a), key(b));
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().expect("ip");
        assert_eq!(key(mapped).to_string(), "192.0.2.1");
    }

    #[test]
    fn origin_must_match_scheme_and_host() {
        let req = |origin: &str| {
            TestRequest::default()
                .insert_header((header::HOST, "gabinet.pl"))
                .insert_header((header::ORIGIN, origin))
                .to_http_request()
        };
        assert!(same_origin(&req("https://gabinet.pl"), true));
        assert!(!same_origin(&req("http://gabinet.pl"), true));
        assert!(!same_origin(&req("https://evil.example"), true));
        assert!(same_origin(
            &TestRequest::default().to_http_request(),
            false
        ));
    }
}
