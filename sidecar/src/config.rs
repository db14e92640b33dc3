//! Configuration from the environment, with defaults that need nothing set.

use std::path::PathBuf;

#[derive(Debug, Clone)]
pub struct Config {
    pub bind: String,
    pub port: u16,
    /// The project root holding `content/` and `templates/`.
    pub root: PathBuf,
    /// Where the built site is published.
    pub dist: PathBuf,
}

impl Config {
    /// Reads `BIND`, `PORT`, `SITE_ROOT` and `DIST_DIR`.
    pub fn from_env() -> Result<Self, crate::Error> {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, crate::Error> {
        let port = match get("PORT") {
            Some(p) => p.parse().map_err(|_| crate::Error::Config {
                name: "PORT",
                message: format!("'{p}' is not a port number"),
            })?,
            None => 8080,
        };
        let root = PathBuf::from(get("SITE_ROOT").unwrap_or_else(|| ".".into()));
        let dist = get("DIST_DIR").map_or_else(|| root.join("dist"), PathBuf::from);
        Ok(Self {
            bind: get("BIND").unwrap_or_else(|| "127.0.0.1".into()),
            port,
            root,
            dist,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_need_nothing_set() {
        let c = Config::from_lookup(|_| None).unwrap();
        assert_eq!((c.bind.as_str(), c.port), ("127.0.0.1", 8080));
        assert_eq!(c.dist, PathBuf::from("./dist"));
    }

    #[test]
    fn a_bad_port_is_named() {
        let err = Config::from_lookup(|k| (k == "PORT").then(|| "80a".into())).unwrap_err();
        assert!(err.to_string().contains("PORT"), "{err}");
    }
}
