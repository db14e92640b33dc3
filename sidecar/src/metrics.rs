//! Metrics in Prometheus' text format, kept and rendered by `prometheus-client`: requests by
//! route and status (counted by [`count_requests`] on both listeners), build and publish
//! durations ([`built`]), and, read at each scrape, contact messages by delivery state, the
//! outbox's depth and oldest age, and the last good backup's age ([`Gauges`]). The panel's
//! 'Stan systemu' shows the same figures, read back from the same text ([`samples`]).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware;
use prometheus_client::encoding::prometheus_text;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use serde::Serialize;
use std::sync::OnceLock;
use std::time::Duration;
use ts_rs::TS;

/// The `Content-Type` of what [`render`] writes (Prometheus' text format 0.0.4).
pub const CONTENT_TYPE: &str = prometheus_text::CONTENT_TYPE;

/// The buckets of every duration (seconds): histograms, not summaries, so that Prometheus
/// can take quantiles over any window and across restarts (a summary's quantiles cover only
/// its last minute, and read 0 after it).
pub const BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

type Requests = Family<[(&'static str, String); 2], Counter>;

/// The metrics of this process, registered once.
struct Metrics {
    registry: Registry,
    requests: Requests,
    build: Histogram,
    publish: Histogram,
    messages: Family<[(&'static str, &'static str); 1], Gauge>,
    outbox_depth: Gauge,
    outbox_oldest_age: Gauge,
    last_backup_age: Gauge,
}

fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let mut registry = Registry::default();
        let requests = Requests::default();
        let build = Histogram::new(BUCKETS);
        let publish = Histogram::new(BUCKETS);
        let messages = Family::default();
        let (outbox_depth, outbox_oldest_age, last_backup_age) =
            (Gauge::default(), Gauge::default(), Gauge::default());
        registry.register(
            "sidecar_http_requests",
            "Odpowiedzi na żądania według wzorca trasy i statusu",
            requests.clone(),
        );
        registry.register(
            "sidecar_build_seconds",
            "Czas budowania strony (sekundy)",
            build.clone(),
        );
        registry.register(
            "sidecar_publish_seconds",
            "Czas publikowania zbudowanej strony w dist/ (sekundy)",
            publish.clone(),
        );
        registry.register(
            "sidecar_contact_messages",
            "Wiadomości z formularza kontaktowego według stanu wysyłki",
            messages.clone(),
        );
        registry.register(
            "sidecar_outbox_depth",
            "Wiadomości czekające na wysłanie",
            outbox_depth.clone(),
        );
        registry.register(
            "sidecar_outbox_oldest_age_seconds",
            "Wiek najstarszej czekającej wiadomości (sekundy; 0: brak)",
            outbox_oldest_age.clone(),
        );
        registry.register(
            "sidecar_backup_last_success_age_seconds",
            "Wiek ostatniej udanej kopii zapasowej (sekundy; -1: jeszcze żadnej)",
            last_backup_age.clone(),
        );
        Metrics {
            registry,
            requests,
            build,
            publish,
            messages,
            outbox_depth,
            outbox_oldest_age,
            last_backup_age,
        }
    })
}

/// Registers the metrics (called at start; the first recording would do it too).
pub fn install() {
    metrics();
}

/// Counts each answered request by its route's pattern (`/api/pages/{id}`; a file of the
/// site or the panel is `static`: addresses are not labels, a scanner's would be endless)
/// and status.
pub async fn count_requests(
    req: ServiceRequest,
    next: middleware::Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let response = next.call(req).await?;
    let route = response
        .request()
        .match_pattern()
        .unwrap_or_else(|| "static".into());
    let status = response.status().as_u16().to_string();
    metrics()
        .requests
        .get_or_create(&[("route", route), ("status", status)])
        .inc();
    Ok(response)
}

/// Records a build of the site and its publishing to `dist/`.
pub fn built(build: Duration, publish: Duration) {
    let metrics = metrics();
    metrics.build.observe(build.as_secs_f64());
    metrics.publish.observe(publish.as_secs_f64());
}

/// What is read at each scrape rather than counted as it happens.
#[derive(Debug, Clone, Default)]
pub struct Gauges {
    pub pending: i64,
    pub delivered: i64,
    pub failed: i64,
    pub oldest_pending_age: Option<i64>,
    pub last_backup_age: Option<i64>,
}

/// The metrics as Prometheus reads them, with `gauges` as of now.
pub fn render(gauges: &Gauges) -> String {
    let metrics = metrics();
    for (status, count) in [
        ("pending", gauges.pending),
        ("delivered", gauges.delivered),
        ("failed", gauges.failed),
    ] {
        metrics
            .messages
            .get_or_create(&[("status", status)])
            .set(count);
    }
    metrics.outbox_depth.set(gauges.pending);
    metrics
        .outbox_oldest_age
        .set(gauges.oldest_pending_age.unwrap_or(0));
    // No good backup yet (or none scheduled): -1, which an alert rule can tell from an age.
    metrics
        .last_backup_age
        .set(gauges.last_backup_age.unwrap_or(-1));
    let mut text = String::new();
    if let Err(e) = prometheus_text::encode(&mut text, &metrics.registry) {
        tracing::error!(error = %e, "metrics could not be rendered");
    }
    text
}

/// One line of the text format: a name, its labels and its value.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(rename = "MetricSample")]
pub struct Sample {
    pub name: String,
    pub labels: Vec<(String, String)>,
    pub value: f64,
}

/// `name{a="x",b="y"} value` as a sample; comments and other lines are none.
fn sample(line: &str) -> Option<Sample> {
    if line.starts_with('#') {
        return None;
    }
    let (series, value) = line.rsplit_once(' ')?;
    let value: f64 = value.parse().ok()?;
    let (name, labels) = match series.split_once('{') {
        Some((name, rest)) => (name, rest.strip_suffix('}')?),
        None => (series, ""),
    };
    let labels = labels
        .split(',')
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let (k, v) = l.split_once('=')?;
            Some((k.to_string(), v.trim_matches('"').to_string()))
        })
        .collect();
    Some(Sample {
        name: name.to_string(),
        labels,
        value,
    })
}

/// The samples of a text the exporter rendered.
pub fn samples(text: &str) -> Vec<Sample> {
    text.lines().filter_map(sample).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_format_reads_back_as_samples() {
        let text = "# TYPE sidecar_http_requests_total counter\nsidecar_http_requests_total{route=\"/api/pages/{id}\",status=\"200\"} 3\nsidecar_outbox_depth 0\nsidecar_build_seconds{quantile=\"0.5\"} 0.25\n\n";
        let got = samples(text);
        assert_eq!(got.len(), 3);
        assert_eq!(
            got[0].labels,
            [
                ("route".to_string(), "/api/pages/{id}".to_string()),
                ("status".to_string(), "200".to_string())
            ]
        );
        assert_eq!(got[0].value, 3.0);
        assert_eq!(
            (got[1].name.as_str(), got[1].value),
            ("sidecar_outbox_depth", 0.0)
        );
        assert_eq!(got[2].value, 0.25);
    }

    #[test]
    fn builds_and_gauges_are_rendered() {
        built(Duration::from_millis(1500), Duration::from_millis(20));
        let text = render(&Gauges {
            pending: 2,
            delivered: 5,
            failed: 0,
            oldest_pending_age: Some(90),
            last_backup_age: None,
        });
        let got = samples(&text);
        let value = |name: &str| got.iter().find(|s| s.name == name).map(|s| s.value);
        assert_eq!(value("sidecar_outbox_depth"), Some(2.0));
        assert_eq!(value("sidecar_outbox_oldest_age_seconds"), Some(90.0));
        assert_eq!(value("sidecar_backup_last_success_age_seconds"), Some(-1.0));
        // A histogram: cumulative buckets up to +Inf, whatever the time since the build.
        let buckets: Vec<&Sample> = got
            .iter()
            .filter(|s| s.name == "sidecar_build_seconds_bucket")
            .collect();
        assert_eq!(buckets.len(), BUCKETS.len() + 1, "{text}");
        let le = |s: &Sample| {
            s.labels
                .iter()
                .find(|(k, _)| k == "le")
                .map(|(_, v)| v.clone())
        };
        let at = |bound: &str| {
            buckets
                .iter()
                .find(|s| le(s).as_deref() == Some(bound))
                .map(|s| s.value)
        };
        assert_eq!(at("1"), Some(0.0), "{text}");
        assert!(at("2.5").is_some_and(|n| n >= 1.0), "{text}");
        assert!(at("+Inf").is_some_and(|n| n >= 1.0), "{text}");
        assert!(!text.contains("quantile="), "no summary: {text}");
        assert!(got.iter().any(|s| s.name == "sidecar_contact_messages"
            && s.labels.contains(&("status".into(), "delivered".into()))
            && s.value == 5.0));
    }
}
