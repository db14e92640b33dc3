//! Connections: how many one client may hold open, how long a request's head may take, and
//! the process's budget of file descriptors. A client (an address, an IPv6 /64) over its cap
//! is refused the moment its connection is accepted, before anything is read, so one address
//! cannot take every descriptor with slow requests; the edge's own connections (a trusted
//! proxy) are not capped. [`listen`] serves an [`App`](actix_web::App) factory on a listener
//! behind that cap, with the same HTTP settings as `HttpServer`; each listener of the server
//! is made by it.

use actix_http::body::MessageBody;
use actix_http::{HttpService, KeepAlive, Request, Response};
use actix_server::ServerBuilder;
use actix_service::{
    fn_factory, fn_service, map_config, IntoServiceFactory, Service, ServiceFactory,
    ServiceFactoryExt as _,
};
use actix_web::dev::AppConfig;
use actix_web::rt::net::TcpStream;
use std::collections::HashMap;
use std::net::IpAddr;
use std::rc::Rc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use std::{fmt, io};

use crate::http::client::{self, Proxies};

/// A connection idle between requests is closed after this long (deploy/nginx.conf drops its
/// idle upstream connections a second earlier, so it never sends on one being closed).
const KEEP_ALIVE: Duration = Duration::from_secs(5);
/// A request's head (line and headers) must arrive within this long of its start.
const REQUEST_HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// A client that does not close its side after the answer is cut off after this long.
const DISCONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// What a refused connection is told before it is closed.
fn refusal() -> &'static [u8] {
    static ANSWER: OnceLock<Vec<u8>> = OnceLock::new();
    ANSWER.get_or_init(|| {
        let body = serde_json::to_string(&crate::error::ErrorBody {
            title: "Zbyt wiele połączeń".into(),
            error: "Z tego adresu otwarto zbyt wiele połączeń naraz. Spróbuj ponownie za chwilę."
                .into(),
            errors: None,
            code: None,
            problems: None,
        })
        .unwrap_or_default();
        format!(
            "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\n\
             Retry-After: 5\r\nCache-Control: no-store\r\nConnection: close\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    })
}

/// The open connections of each client, shared by every worker (and listener) given it.
#[derive(Clone)]
pub struct Cap {
    shared: Arc<Shared>,
}

struct Shared {
    per_client: usize,
    proxies: Proxies,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One admitted connection; it stops counting when dropped (when the connection ends).
/// The edge's connections are admitted without being counted (`key` is `None`).
pub struct Admitted {
    shared: Arc<Shared>,
    key: Option<IpAddr>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let Some(key) = self.key else { return };
        let mut open = self.shared.lock();
        if let Some(n) = open.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                open.remove(&key);
            }
        }
    }
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Cap {
    /// At most `per_client` connections per client; `proxies` are not capped.
    pub fn new(per_client: usize, proxies: Proxies) -> Self {
        Cap {
            shared: Arc::new(Shared {
                per_client: per_client.max(1),
                proxies,
                open: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// Counts a new connection from `peer`, or `None` when that client is at its cap.
    pub fn admit(&self, peer: IpAddr) -> Option<Admitted> {
        let shared = Arc::clone(&self.shared);
        if self.shared.proxies.trusts(peer) {
            return Some(Admitted { shared, key: None });
        }
        let key = client::key(peer);
        let mut open = self.shared.lock();
        let n = open.entry(key).or_insert(0);
        if *n >= self.shared.per_client {
            return None;
        }
        *n += 1;
        Some(Admitted {
            shared,
            key: Some(key),
        })
    }

    /// How many connections `peer`'s client holds now.
    pub fn open(&self, peer: IpAddr) -> usize {
        self.shared
            .lock()
            .get(&client::key(peer))
            .copied()
            .unwrap_or(0)
    }
}

/// Listens on every address `host` resolves to, at `port`.
pub fn bind(host: &str, port: u16) -> io::Result<Vec<std::net::TcpListener>> {
    use std::net::ToSocketAddrs;
    (host, port)
        .to_socket_addrs()?
        .map(std::net::TcpListener::bind)
        .collect()
}

/// Serves the application `app` makes on `listener`, each connection admitted by `cap`.
pub fn listen<F, I, S, B>(
    builder: ServerBuilder,
    name: &str,
    listener: std::net::TcpListener,
    cap: &Cap,
    app: F,
) -> io::Result<ServerBuilder>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: IntoServiceFactory<S, Request>,
    S: ServiceFactory<Request, Config = AppConfig> + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: fmt::Debug,
    S::Response: Into<Response<B>> + 'static,
    <S::Service as Service<Request>>::Future: 'static,
    S::Service: 'static,
    B: MessageBody + 'static,
{
    let addr = listener.local_addr()?;
    let shutdown = builder.graceful_shutdown_signal();
    let cap = cap.clone();
    builder.listen(name, listener, move || {
        let shutdown = shutdown.clone();
        let app = app()
            .into_factory()
            .map_err(|err| err.into().error_response());
        let http = HttpService::build()
            .graceful_shutdown_signal(move || {
                let signal = shutdown.clone();
                async move { signal.notified().await }
            })
            .keep_alive(KeepAlive::Timeout(KEEP_ALIVE))
            .client_request_timeout(REQUEST_HEAD_TIMEOUT)
            .client_disconnect_timeout(DISCONNECT_TIMEOUT)
            .local_addr(addr)
            .finish(map_config(app, |_| AppConfig::default()))
            .tcp();
        capped(http, cap.clone())
    })
}

/// `inner` for the connections `cap` admits; the others are told 429 and closed.
fn capped<T>(
    inner: T,
    cap: Cap,
) -> impl ServiceFactory<TcpStream, Config = (), Response = (), Error = T::Error, InitError = T::InitError>
where
    T: ServiceFactory<TcpStream, Config = (), Response = ()>,
    T::Service: 'static,
{
    let inner = Rc::new(inner);
    fn_factory(move || {
        let (made, cap) = (inner.new_service(()), cap.clone());
        async move {
            let service = Rc::new(made.await?);
            Ok(fn_service(move |io: TcpStream| {
                let admitted = io.peer_addr().ok().and_then(|a| cap.admit(a.ip()));
                let service = Rc::clone(&service);
                async move {
                    match admitted {
                        Some(_counted) => service.call(io).await,
                        None => {
                            refuse(&io);
                            Ok(())
                        }
                    }
                }
            }))
        }
    })
}

/// Answers 429 without waiting for anything and closes. What already arrived is discarded
/// first (unread, it would turn the close into a reset that loses the answer); nothing is
/// waited for: a full send buffer loses the answer, not time.
fn refuse(io: &TcpStream) {
    let mut discard = [0_u8; 4096];
    let _ = io.try_read(&mut discard);
    let _ = io.try_write(refusal());
    tracing::debug!(peer = ?io.peer_addr().ok(), "connection refused: too many from this client");
}

/// Raises the soft limit of open files to the hard limit (systemd's `LimitNOFILE=`, or the
/// shell's `ulimit -Hn`): the soft default of 1024 is what a few slow clients exhaust.
pub fn raise_fd_limit() -> io::Result<u64> {
    rlimit::increase_nofile_limit(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn a_client_gets_its_cap_and_a_slot_back_when_a_connection_ends() {
        let cap = Cap::new(2, Proxies::default());
        let first = cap.admit(ip("192.0.2.1")).expect("first");
        let _second = cap.admit(ip("192.0.2.1")).expect("second");
        assert!(cap.admit(ip("192.0.2.1")).is_none(), "third refused");
        assert!(cap.admit(ip("192.0.2.2")).is_some(), "another client");
        drop(first);
        assert_eq!(cap.open(ip("192.0.2.1")), 1);
        assert!(cap.admit(ip("192.0.2.1")).is_some(), "a slot came back");
    }

    #[test]
    fn an_ipv6_64_is_one_client_and_trusted_proxies_are_not_capped() {
        let cap = Cap::new(1, Proxies::parse("127.0.0.1").expect("proxies"));
        let _held = cap.admit(ip("2001:db8:1:2::1")).expect("first");
        assert!(cap.admit(ip("2001:db8:1:2:ffff::9")).is_none(), "same /64");
        assert!(cap.admit(ip("2001:db8:1:3::1")).is_some(), "another /64");
        let edge: Vec<_> = (0..10).map(|_| cap.admit(ip("127.0.0.1"))).collect();
        assert!(edge.iter().all(Option::is_some));
        assert_eq!(cap.open(ip("127.0.0.1")), 0, "the edge is not counted");
    }

    #[test]
    fn the_refusal_is_a_complete_answer() {
        let text = std::str::from_utf8(refusal()).expect("utf-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
        assert!(head.contains(&format!("Content-Length: {}", body.len())));
        let json: serde_json::Value = serde_json::from_str(body).expect("JSON");
        assert!(json["error"]
            .as_str()
            .is_some_and(|e| e.contains("połączeń")));
    }
}
