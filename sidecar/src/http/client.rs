//! Who sent a request. Behind a reverse proxy every connection comes from the proxy, so the
//! visitor's address is taken from the one header that proxy writes (`FORWARDED_HEADER`,
//! `X-Forwarded-For` by default) — but only when the connection comes from a proxy listed in
//! `TRUSTED_PROXIES`: anyone else could write it. Of that header only what the nearest
//! trusted hop appended counts (the rightmost address that is not itself a trusted proxy):
//! everything to its left was written by the visitor, and any other forwarding header (a
//! `Forwarded` the edge passed through untouched) is ignored. The same rule decides whether a
//! request came over HTTPS. Rate limits key IPv6 clients by their /64, the block one home or
//! phone is given.

use actix_web::dev::Payload;
use actix_web::http::header::{self, HeaderName};
use actix_web::{web, FromRequest, HttpRequest};
use ipnet::IpNet;
use std::future::{ready, Ready};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::error::ApiError;

/// The header a trusted proxy writes the visitor's address in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddressHeader {
    /// RFC 7239 `Forwarded: for=…;proto=…`; the scheme is the `proto` of the same element.
    Forwarded,
    /// A comma-separated list of addresses (`X-Forwarded-For` syntax); the scheme is the last
    /// value of `X-Forwarded-Proto`.
    List(HeaderName),
}

impl AddressHeader {
    /// A header name: `Forwarded` or any header holding a list of addresses.
    pub fn parse(name: &str) -> Result<Self, String> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("forwarded") {
            return Ok(AddressHeader::Forwarded);
        }
        HeaderName::from_bytes(name.as_bytes())
            .map(AddressHeader::List)
            .map_err(|_| format!("'{name}' is not a header name"))
    }
}

impl Default for AddressHeader {
    /// What the generated nginx rules set.
    fn default() -> Self {
        AddressHeader::List(HeaderName::from_static("x-forwarded-for"))
    }
}

/// The proxies whose forwarding header is believed, and which header that is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proxies {
    nets: Vec<IpNet>,
    header: AddressHeader,
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
        Ok(Proxies {
            nets,
            header: AddressHeader::default(),
        })
    }

    /// The header these proxies write the visitor's address in.
    pub fn with_header(self, header: AddressHeader) -> Self {
        Proxies { header, ..self }
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
        .map(canonical)
}

/// One hop of the forwarding header: the address it names (`None` when it names none that
/// can be read: `unknown`, an obfuscated name) and, for `Forwarded`, its `proto`.
#[derive(Debug, PartialEq, Eq)]
struct Hop {
    address: Option<IpAddr>,
    proto: Option<String>,
}

/// The hops of the configured header, nearest last (repeated headers in their order).
fn hops(req: &HttpRequest, header: &AddressHeader) -> Vec<Hop> {
    let name = match header {
        AddressHeader::Forwarded => &header::FORWARDED,
        AddressHeader::List(name) => name,
    };
    let elements = req
        .headers()
        .get_all(name)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    match header {
        AddressHeader::List(_) => elements
            .map(|e| Hop {
                address: parse_forwarded_address(e),
                proto: None,
            })
            .collect(),
        AddressHeader::Forwarded => elements.map(forwarded_element).collect(),
    }
}

/// `for=192.0.2.1;proto=https;by=…` → its address and scheme.
fn forwarded_element(element: &str) -> Hop {
    let mut hop = Hop {
        address: None,
        proto: None,
    };
    for (key, value) in element.split(';').filter_map(|pair| pair.split_once('=')) {
        let key = key.trim();
        if key.eq_ignore_ascii_case("for") {
            hop.address = parse_forwarded_address(value);
        } else if key.eq_ignore_ascii_case("proto") {
            hop.proto = Some(value.trim().trim_matches('"').to_ascii_lowercase());
        }
    }
    hop
}

fn peer(req: &HttpRequest) -> IpAddr {
    req.peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |a| canonical(a.ip()))
}

/// The hop the nearest trusted proxy appended for the visitor: walking from the right past
/// trusted proxies, the first hop. `None` when the peer is not trusted or said nothing.
fn visitor_hop(req: &HttpRequest, proxies: &Proxies) -> Option<Hop> {
    if !proxies.trusts(peer(req)) {
        return None;
    }
    hops(req, &proxies.header)
        .into_iter()
        .rev()
        .find(|hop| !hop.address.is_some_and(|ip| proxies.trusts(ip)))
}

/// The visitor's address: the peer, or — when the peer is a trusted proxy — the address the
/// nearest trusted hop wrote. A hop that names no readable address counts as the proxy
/// itself: the addresses left of it were written by whoever connected to it.
pub fn address(req: &HttpRequest, proxies: &Proxies) -> IpAddr {
    visitor_hop(req, proxies)
        .and_then(|hop| hop.address)
        .unwrap_or_else(|| peer(req))
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
/// when a trusted proxy says so (the sidecar itself speaks plain HTTP): the `proto` of the
/// visitor's `Forwarded` hop, or the last `X-Forwarded-Proto` (the one the nearest proxy set).
pub fn is_https(req: &HttpRequest, proxies: &Proxies, force: bool) -> bool {
    if force {
        return true;
    }
    if !proxies.trusts(peer(req)) {
        return false;
    }
    let proto = match proxies.header {
        AddressHeader::Forwarded => visitor_hop(req, proxies).and_then(|hop| hop.proto),
        AddressHeader::List(_) => req
            .headers()
            .get_all("x-forwarded-proto")
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .last()
            .map(|v| v.trim().to_ascii_lowercase()),
    };
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

/// How a request's client is told apart: its address behind trusted proxies, its scheme.
pub struct Clients {
    pub proxies: Proxies,
    pub force_https: bool,
}

impl Clients {
    /// The client's rate-limit key (an IPv6 client's /64).
    pub fn key(&self, req: &HttpRequest) -> IpAddr {
        key(address(req, &self.proxies))
    }

    pub fn https(&self, req: &HttpRequest) -> bool {
        is_https(req, &self.proxies, self.force_https)
    }
}

/// What rate limits count for the client behind a request ([`Clients::key`]): a handler
/// takes it as an argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientKey(pub IpAddr);

impl std::fmt::Display for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl FromRequest for ClientKey {
    type Error = ApiError;
    type Future = Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(
            req.app_data::<web::Data<Clients>>()
                .map(|clients| ClientKey(clients.key(req)))
                .ok_or_else(|| ApiError::internal(&"the app has no client settings")),
        )
    }
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
            .insert_header(("x-forwarded-proto", "https"))
            .to_http_request();
        assert_eq!(address(&forged, &proxies).to_string(), "203.0.113.9");
        assert!(!is_https(&forged, &proxies, false));
        assert!(is_https(&forged, &proxies, true), "FORCE_HTTPS");
        let proxied = from("127.0.0.1:5000")
            .insert_header(("x-forwarded-for", "198.51.100.7, 10.1.2.3"))
            .to_http_request();
        assert_eq!(address(&proxied, &proxies).to_string(), "198.51.100.7");
    }

    #[test]
    fn only_the_configured_header_counts_and_only_its_nearest_untrusted_hop() {
        let proxies = Proxies::parse("127.0.0.1").expect("parses");
        // The edge appended the visitor (203.0.113.5); the visitor wrote the rest.
        let req = from("127.0.0.1:5000")
            .insert_header(("x-forwarded-for", "192.0.2.77, 203.0.113.5"))
            .insert_header((header::FORWARDED, "for=192.0.2.1;proto=https"))
            .insert_header(("x-forwarded-proto", "http"))
            .to_http_request();
        assert_eq!(address(&req, &proxies).to_string(), "203.0.113.5");
        assert!(
            !is_https(&req, &proxies, false),
            "Forwarded's proto is ignored"
        );
        let standard = proxies
            .clone()
            .with_header(AddressHeader::parse("Forwarded").expect("a header"));
        assert_eq!(address(&req, &standard).to_string(), "192.0.2.1");
        assert!(is_https(&req, &standard, false));
        let chain = from("127.0.0.1:5000")
            .insert_header((
                header::FORWARDED,
                "for=192.0.2.9;proto=https, for=\"[2001:db8::1]:443\";proto=http, for=127.0.0.1",
            ))
            .to_http_request();
        assert_eq!(address(&chain, &standard).to_string(), "2001:db8::1");
        assert!(!is_https(&chain, &standard, false), "the visitor's own hop");
        let obfuscated = from("127.0.0.1:5000")
            .insert_header(("x-forwarded-for", "192.0.2.9, unknown"))
            .to_http_request();
        assert_eq!(
            address(&obfuscated, &proxies).to_string(),
            "127.0.0.1",
            "never an address left of an unreadable hop"
        );
        let repeated = from("127.0.0.1:5000")
            .insert_header(("x-forwarded-for", "192.0.2.9"))
            .append_header(("x-forwarded-for", "198.51.100.3"))
            .to_http_request();
        assert_eq!(address(&repeated, &proxies).to_string(), "198.51.100.3");
        assert!(AddressHeader::parse("bad header").is_err());
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
