#!/usr/bin/env python3
"""`make bench`: every measurement of issues 8, 15 and 25, side by side in one run, as one
Markdown table.

All load runs are bounded (fixed duration) and target loopback only. BENCH_ONLY=images runs
the images section alone, BENCH_ONLY=build the 1,000- and 10,000-article builds and edits (and the publish gate's cost),
BENCH_ONLY=gate the publish gate's cost per page and at 10,000 articles,
BENCH_ONLY=fresh the fresh clone's `make run` and `make test` (long: they compile everything),
BENCH_ONLY=zola a fresh clone's `make run` beside Zola's first build (ZOLA_SOURCE: a clone of Zola),
BENCH_ONLY=upload a phone photograph's upload to the debug sidecar `make run` builds,
BENCH_ONLY=contact the contact form under load, BENCH_ONLY=stats the statistics' endpoint and
storage, BENCH_ONLY=pages the bytes each page kind loads,
BENCH_ONLY=backup a restic backup's duration and the pages' p99 while backups run,
BENCH_ONLY=git push → served in forge and hosted mode while the pages' load test runs against
the same server (BENCH_GIT_RUNS pushes each, 20 by default: p50 and p95).

`bench.py --smoke` (in `make test`): the build rows once each, on a corpus of BENCH_ARTICLES
articles (100 by default) and with the debug `site` binary, in a folder of its own: it fails when
a row cannot run (a corpus the checks refuse, a command that changed) and says nothing of time."""
import gzip, json, os, pathlib, re, shutil, socket, sqlite3, statistics, subprocess, sys, tempfile, threading, time, urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
SMOKE = "--smoke" in sys.argv[1:]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
SITE = TARGET / ("debug" if SMOKE else "release") / "site"
SIDECAR = ROOT / "target/release/sidecar"
TMPFS = pathlib.Path("/dev/shm/harmonia-bench")
RUNS = 1 if SMOKE else int(os.environ.get("BENCH_RUNS", "3"))
# How many rebuilds each edit row times.
EDITS = 1 if SMOKE else 5
WRK_SECONDS = os.environ.get("BENCH_WRK_SECONDS", "10")
GIT_RUNS = int(os.environ.get("BENCH_GIT_RUNS", "20"))
CONNECTIONS = 32
rows = []


def row(what, ours, other="", ratio="", target=""):
    rows.append((what, ours, other, ratio, target))


def measured(cmd, env=None, cwd=None):
    """Runs `cmd`; returns (seconds, peak resident memory in MiB) of that process and its children."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{proc.stderr.read().decode()}")
    return seconds, usage.ru_maxrss / 1024


def median_of(cmd, runs=None, **kw):
    results = [measured(cmd, **kw) for _ in range(runs or RUNS)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results)


def article_markdown(i):
    # Numbered with five digits: a bare 112 in a text is a crisis line the checks want linked.
    paragraph = ("Terapia poznawczo-behawioralna pomaga zauważyć, jak myśli wpływają na emocje i zachowania. "
                 "Regularna praca między sesjami utrwala zmiany, a konkretne ćwiczenia przenoszą je do codzienności. ") * 3
    return (f"## Wprowadzenie {i:05d}\n\n{paragraph}\n\n## Najważniejsze kroki\n\n- pierwszy krok\n- drugi krok\n- trzeci krok\n\n"
            f"{paragraph}\n\n## Przykład\n\n```\nplan = ['sen', 'ruch', 'rozmowa']\nfor krok in plan:\n    print(krok)\n```\n\n"
            f"{paragraph}\n\n### Podsumowanie\n\n{paragraph}\n")


OUR_TEMPLATES = {
    "base.html": '<!doctype html><html lang="pl"><head><meta charset="utf-8"><title>{{ page.title }}</title></head><body>{% block main %}{% endblock main %}{% include "partials/footer.html" %}</body></html>\n',
    "page.html": '{% extends "base.html" %}{% block main %}<h1>{{ page.title }}</h1>{% for s in sections %}{{ s.html | safe }}{% endfor %}{% endblock main %}\n',
    "blog.html": '{% extends "base.html" %}{% block main %}<h1>{{ page.title }}</h1><ul>{% for a in collections.articles %}<li><a href="{{ a.href }}">{{ a.title }}</a> <time>{{ a.date_iso }}</time></li>{% endfor %}</ul>{% endblock main %}\n',
    "article.html": '{% extends "base.html" %}{% block main %}<h1>{{ article.title }}</h1><time>{{ article.date_iso }}</time>{% for s in sections %}{{ s.html | safe }}{% endfor %}{% endblock main %}\n',
    "service.html": '{% extends "base.html" %}{% block main %}<h1>{{ page.title }}</h1>{% endblock main %}\n',
    "404.html": '{% extends "base.html" %}{% block main %}<h1>Nie znaleziono</h1>{% endblock main %}\n',
}
HUGO_LAYOUTS = {
    "_default/baseof.html": '<!doctype html><html lang="pl"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body>{{ block "main" . }}{{ end }}</body></html>\n',
    "_default/single.html": '{{ define "main" }}<h1>{{ .Title }}</h1><time>{{ .Date.Format "2006-01-02" }}</time>{{ .Content }}{{ end }}\n',
    "_default/list.html": '{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <time>{{ .Date.Format "2006-01-02" }}</time></li>{{ end }}</ul>{{ end }}\n',
    "index.html": '{{ define "main" }}<h1>{{ .Title }}</h1>{{ end }}\n',
    "404.html": '{{ define "main" }}<h1>Nie znaleziono</h1>{{ end }}\n',
}


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def footer_documents():
    """The documents the real footer links (its `footer-docs` list: the terms, the privacy policy,
    the minors' standards the checks require on every page, ...), as (route, title): the corpus's
    bare footer links the same, each to a bare page, so it keeps passing the checks the real footer
    passes."""
    footer = (ROOT / "templates/partials/footer.html").read_text()
    docs = re.search(r'aria-labelledby="footer-docs".*?</nav>', footer, re.S)
    if not docs:
        sys.exit("templates/partials/footer.html has no footer-docs list: make_corpus in bench/bench.py needs a new way to find the footer's documents")
    return re.findall(r'<a href="(/[a-z0-9-]+)">([^<]+)</a>', docs.group(0))


def site_yaml_for_corpus():
    """The real site.yaml, less what names files the corpus does not have: no services (the
    real lists of them would name missing pages), and fallback images among its own SVGs (the
    real photographs would be encoded on each clean build)."""
    text = (ROOT / "content/site.yaml").read_text()
    text = re.sub(r"online_services:\n(  - .*\n)+", "online_services: []\n", text)
    text = re.sub(r"\n  services:\n(    .*\n)+", "\n  services: {}\n", text)
    fallbacks = re.search(r"fallback_images:\n((?:  - .*\n)+)", text)
    count = len(fallbacks.group(1).splitlines()) if fallbacks else 0
    svgs = sorted(p.name for p in (ROOT / "content/images").glob("*.svg"))[:count]
    if fallbacks and len(svgs) == count:
        text = text.replace(fallbacks.group(0), "fallback_images:\n" + "".join(f'  - "{s}"\n' for s in svgs))
    return text, svgs


def make_corpus(n):
    """n articles with bare templates for us and for Hugo (the same markup on both sides), on
    the real site's facts, texts, team, assets and footer documents, so that the corpus passes
    every check the real site does."""
    base = TMPFS / f"corpus-{n}"
    shutil.rmtree(base, ignore_errors=True)
    ours, hugo = base / "ours", base / "hugo"
    (ours / "content").mkdir(parents=True)
    site_yaml, images = site_yaml_for_corpus()
    write(ours / "content/site.yaml", site_yaml)
    write(ours / "content/cennik.yaml", "items: []\n")
    shutil.copy(ROOT / "content/napisy.yaml", ours / "content/napisy.yaml")
    for d in ["services", "team", "images"]:
        (ours / "content" / d).mkdir(parents=True, exist_ok=True)
    for image in images:
        shutil.copy(ROOT / "content/images" / image, ours / "content/images" / image)
    # The team stays: who books what names its therapists.
    for profile in (ROOT / "content/team").glob("*.md"):
        shutil.copy(profile, ours / "content/team" / profile.name)
        photo = re.search(r'^photo: "(.+)"$', profile.read_text(), re.M)
        if photo:
            shutil.copy(ROOT / "content/images" / photo.group(1), ours / "content/images" / photo.group(1))
    write(ours / "content/pages/home.md", '---\ntitle: "Start"\ndescription: "Korpus testowy"\n---\nStrona startowa i [blog](/blog).\n')
    write(ours / "content/pages/blog.md", '---\ntitle: "Blog"\ndescription: "Lista artykułów"\ntemplate: blog\n---\n')
    documents = footer_documents()
    for route, title in documents:
        write(ours / f"content/pages{route}.md", f'---\ntitle: "{title}"\ndescription: "{title}: strona korpusu testowego"\n---\nTreść strony „{title}”.\n')
    links = "".join(f'<li><a href="{route}">{title}</a></li>' for route, title in documents)
    write(ours / "templates/partials/footer.html", f'<footer><nav aria-labelledby="footer-docs"><h2 id="footer-docs">Dokumenty</h2><ul>{links}</ul></nav></footer>\n')
    for name, text in OUR_TEMPLATES.items():
        write(ours / "templates" / name, text)
    # The stylesheets and static files the build publishes as they are: the real ones.
    for d in ["assets", "static"]:
        shutil.copytree(ROOT / "templates" / d, ours / "templates" / d)
    (ours / "islands").mkdir(parents=True, exist_ok=True)
    os.symlink(ROOT / "islands/build", ours / "islands/build")
    write(hugo / "hugo.toml", 'baseURL = "https://example.org/"\nlanguageCode = "pl"\ntitle = "Korpus"\ndisableKinds = ["taxonomy", "term"]\n')
    write(hugo / "content/blog/_index.md", '---\ntitle: "Blog"\n---\n')
    for name, text in HUGO_LAYOUTS.items():
        write(hugo / "layouts" / name, text)
    for i in range(n):
        day = f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}"
        body = article_markdown(i)
        write(ours / f"content/blog/artykul-{i:05d}.md",
              f'---\ntitle: "Artykuł numer {i}"\ndescription: "Opis artykułu {i}"\nexcerpt: "Wstęp do artykułu {i}"\ndate: "{day}"\nimage: "photo-1506126613408-eca07ce68773"\nimage_alt: "Zdjęcie"\nauthor: "Autor"\n---\n{body}')
        write(hugo / f"content/blog/artykul-{i:05d}.md", f'---\ntitle: "Artykuł numer {i}"\ndate: {day}\ndescription: "Opis artykułu {i}"\n---\n{body}')
    return ours, hugo


def build_pair(n):
    ours, hugo = make_corpus(n)
    runs = RUNS
    # A clean build: a new output folder each run (a later run would link the files of the
    # one before).
    out = lambda: TMPFS / f"out-ours-{n}-{time.monotonic_ns()}"
    our = [measured([SITE, "build", "--root", ours, "--out", out()]) for _ in range(runs)]
    our_s, our_mb = statistics.median(r[0] for r in our), max(r[1] for r in our)
    if SMOKE and not shutil.which("hugo"):
        row(f"{n:,} articles: clean build wall time", f"{our_s * 1000:.0f} ms", "Hugo not installed", "", "")
        return ours, our_s
    hugo_s, hugo_mb = median_of(["hugo", "--quiet", "--source", hugo, "--destination", TMPFS / f"out-hugo-{n}"], runs)
    row(f"{n:,} articles: clean build wall time", f"{our_s * 1000:.0f} ms", f"Hugo {hugo_s * 1000:.0f} ms", f"{our_s / hugo_s:.2f}×", "≤ 0.25× Hugo" if n == 10000 else "")
    row(f"{n:,} articles: peak memory", f"{our_mb:.0f} MiB", f"Hugo {hugo_mb:.0f} MiB", f"{our_mb / hugo_mb:.2f}×", "≤ 1× Hugo" if n == 10000 else "")
    return ours, our_s


def real_site_with(n):
    """A copy of the real site (its templates, pages and facts) with `n` more articles: what the
    publish gate reads at that size (the corpus of the Hugo comparison has bare templates)."""
    copy = TMPFS / f"gate-real-{n}"
    shutil.rmtree(copy, ignore_errors=True)
    for d in ["content", "templates"]:
        shutil.copytree(ROOT / d, copy / d)
    (copy / "islands").mkdir(parents=True)
    os.symlink(ROOT / "islands/build", copy / "islands/build")
    head = (ROOT / "content/blog/terapia-cbt.md").read_text().split("\n---\n", 1)[0].replace("featured: true", "featured: false")
    for i in range(n):
        # A title of its own, short enough for search results like the real one's.
        front = re.sub(r'^title: ".*"$', f'title: "Artykuł {i} o terapii CBT"', head, count=1, flags=re.M)
        write(copy / f"content/blog/artykul-{i:05d}.md", f"{front}\n---\n{article_markdown(i)}")
    return copy


def gate_rows(n, sizes=None):
    """The publish gate: its cost per page on a clean build of the real site, of the real site
    with n more articles, and of a one-article edit there (changed pages only)."""
    env = dict(os.environ, IMAGE_CACHE_DIR=str(ROOT / ".cache/images"))

    def timing(root, edit, times):
        out = subprocess.run([SITE, "rebuild-timing", "--root", root, "--out", TMPFS / f"out-{root.name}",
                              "--edit", edit, "--times", str(times)], capture_output=True, text=True, env=env)
        if out.returncode != 0:
            sys.exit(f"rebuild-timing failed:\n{out.stderr[-3000:]}")
        return [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]

    for size in sizes or [0, n]:
        root = real_site_with(size)
        lines = timing(root, root / "content/blog/terapia-cbt.md", min(3, EDITS))
        clean, edits = lines[0], [l for l in lines if "incremental_ms" in l]
        pages = clean["rendered"]
        row(f"publish gate: real templates, {pages:,} pages, clean build",
            f"{clean['gate_ms']:.0f} ms ({clean['gate_ms'] / pages * 1000:.0f} µs a page)",
            f"clean build {clean['full_ms']:.0f} ms", f"{clean['gate_ms'] / clean['full_ms']:.2f}×", "")
        row(f"publish gate: real templates, {pages:,} pages, one-article edit (changed pages only)",
            f"{statistics.median(e['gate_ms'] for e in edits):.2f} ms for {edits[-1]['rendered']} pages",
            f"edit until served {statistics.median(e['incremental_ms'] for e in edits):.0f} ms", "", "")


def incremental(ours, n, clean_s):
    for label, file in [("one article", ours / "content/blog/artykul-00042.md"), ("site.yaml", ours / "content/site.yaml")]:
        out = subprocess.run([SITE, "rebuild-timing", "--root", ours, "--out", TMPFS / f"out-inc-{n}", "--edit", file, "--times", str(EDITS)],
                             capture_output=True, text=True, check=True).stdout
        runs = [json.loads(l) for l in out.splitlines() if "incremental_ms" in l]
        scan = [json.loads(l) for l in out.splitlines() if "scan_ms" in l][0]
        median = lambda key: statistics.median(r[key] for r in runs)
        served = median('incremental_ms')
        row(f"{n:,} articles: edit of {label} until served (the sidecar's save: told which file)",
            f"{served:.0f} ms ({runs[-1]['rendered']} pages rendered; load {median('load_ms'):.0f} ms, render {median('render_ms'):.0f} ms)",
            f"clean build {clean_s * 1000:.0f} ms", f"{served / 1000 / clean_s:.2f}×", "< 30 ms" if label == "one article" else "≤ 0.3× clean build")
        row(f"{n:,} articles: edit of {label} until served (found by looking at every file)",
            f"{scan['scan_ms']:.0f} ms (load {scan['load_ms']:.0f} ms, render {scan['render_ms']:.0f} ms)", "", "", "")
        row(f"{n:,} articles: then publishing dist/ for a CDN (after it is served)", f"{median('publish_ms'):.0f} ms", "", "", "")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, proc):
    for _ in range(300):
        if proc.poll() is not None:
            sys.exit(f"server exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"nothing listens on {port}")


def start_sidecar(dist, data, extra=None):
    port = free_port()
    env = {**os.environ, "PORT": str(port), "ADMIN_PORT": str(free_port()), "SITE_ROOT": str(ROOT), "DIST_DIR": str(dist), "DATA_DIR": str(data), "RUST_LOG": "error", **(extra or {})}
    proc = subprocess.Popen([SIDECAR], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_port(port, proc)
    return proc, port


PAGES = ["/", "/o-mnie", "/uslugi", "/uslugi/terapia-indywidualna", "/cennik", "/blog", "/blog/terapia-cbt", "/regulamin", "/m1"]


def wrk(port, script, duration=WRK_SECONDS):
    out = subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{duration}s", "--latency", "-s", script, f"http://127.0.0.1:{port}"],
                         capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    p99_ms = float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
    total = int(re.search(r"(\d+) requests in", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, p99_ms, total, int(non2xx.group(1)) if non2xx else 0


def serving():
    work = TMPFS / "serve"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    sidecar, port = start_sidecar(work / "dist", pathlib.Path(tempfile.mkdtemp(prefix="bench-var-")))
    script = pages_script(work)
    # The sidecar compresses each file once and keeps it in memory; nginx gets the same
    # advantage: a copy of the same dist/ with .gz files made ahead, served by gzip_static.
    nginx_root = work / "nginx-root"
    shutil.copytree((work / "dist").resolve(), nginx_root)
    for f in nginx_root.rglob("*"):
        if f.is_file() and f.suffix in {".html", ".css", ".js", ".svg", ".xml", ".txt", ".json"}:
            f.with_name(f.name + ".gz").write_bytes(gzip.compress(f.read_bytes(), 9))
    nginx_port = free_port()
    conf = work / "nginx.conf"
    conf.write_text(f"""worker_processes 2;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  keepalive_requests 1000000;
  gzip_static on;
  gzip on;
  gzip_comp_level 6;
  gzip_min_length 0;
  gzip_types text/css application/javascript application/json image/svg+xml application/xml text/xml;
  client_body_temp_path {work}/tmp;
  server {{
    listen 127.0.0.1:{nginx_port};
    root {nginx_root};
    location / {{ try_files $uri $uri/index.html =404; }}
  }}
}}
""")
    nginx = subprocess.Popen(["nginx", "-c", str(conf), "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_port(nginx_port, nginx)
    try:
        ours = wrk(port, script)
        theirs = wrk(nginx_port, script)
    finally:
        nginx.terminate()
        sidecar.terminate()
    row("serving the built site (9 page kinds, gzip made once, keep-alive, 32 connections): requests/s", f"{ours[0]:,.0f}", f"nginx {theirs[0]:,.0f}", f"{ours[0] / theirs[0]:.2f}×", "≥ 0.8× nginx")
    row("serving the built site: p99 latency", f"{ours[1]:.2f} ms", f"nginx {theirs[1]:.2f} ms", f"{ours[1] / theirs[1]:.2f}×", "")


def contact():
    work = TMPFS / "contact"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    data = pathlib.Path(tempfile.mkdtemp(prefix="bench-contact-", dir="/var/tmp"))  # a real disk: fsync counts
    proc, port = start_sidecar(work / "dist", data, {"CONTACT_RATE_PER_MINUTE": "100000000", "CONTACT_MIN_SECONDS": "0"})
    token = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/contact/token").read())["token"]
    body = json.dumps({"name": "Anna Test", "email": "anna@example.pl", "phone": "501234567", "countryCode": "+48",
                       "message": "Wiadomość z testu obciążenia.", "fullPhone": "+48501234567", "token": token, "website": ""})
    script = work / "post.lua"
    script.write_text(f'wrk.method = "POST"\nwrk.path = "/api/contact"\nwrk.body = {json.dumps(body)}\nwrk.headers["Content-Type"] = "application/json"\n')
    try:
        rps, p99, total, non2xx = wrk(port, script)
    finally:
        proc.terminate()
        proc.wait()
    stored = sqlite3.connect(data / "site.sqlite3").execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    acknowledged = total - non2xx
    row("POST /api/contact, stored durably (WAL, synchronous=FULL, real disk): per second", f"{rps:,.0f}", "", "", "≥ 1,000/s")
    row("POST /api/contact: p99 latency", f"{p99:.1f} ms", "", "", "< 50 ms")
    row("POST /api/contact: acknowledged / stored rows", f"{acknowledged:,} / {stored:,}", "", "", "stored ≥ acknowledged")
    shutil.rmtree(data, ignore_errors=True)


STATS_SOURCES = ["", "", "", "google.com", "google.com", "facebook.com", "znanylekarz.pl", "bing.com", "instagram.com", "duckduckgo.com"]


def stats_bench():
    """The statistics' endpoint (issue 47): beacons of many visitors (a random address each, through
    a trusted edge, as a browser sends them) at wrk's pace on the release build with its database
    on a real disk — events a second, p99, and that every one answered 204 was counted; and the
    database's growth per 100,000 page views as a practice's site gets them (the example
    `stats_growth`: the very tally and SQL, 1,000 views a day for 100 days)."""
    work = TMPFS / "stats"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    data = pathlib.Path(tempfile.mkdtemp(prefix="bench-stats-", dir="/var/tmp"))  # a real disk: fsync counts
    proc, port = start_sidecar(work / "dist", data, {"TRUSTED_PROXIES": "127.0.0.1"})
    pages = ", ".join(f'"{p}"' for p in PAGES)
    sources = ", ".join(f'"{s}"' for s in STATS_SOURCES)
    script = work / "event.lua"
    script.write_text(f"""local pages = {{{pages}}}
local sources = {{{sources}}}
local widths = {{390, 390, 820, 1440}}
local headers = {{["Content-Type"] = "text/plain;charset=UTF-8", ["Sec-Fetch-Site"] = "same-origin",
  ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"}}
math.randomseed(os.time())
request = function()
  headers["X-Forwarded-For"] = "10." .. math.random(0, 255) .. "." .. math.random(0, 255) .. "." .. math.random(1, 254)
  local body = string.format('{{"e":"view","p":"%s","r":"%s","w":%d}}', pages[math.random(#pages)], sources[math.random(#sources)], widths[math.random(#widths)])
  return wrk.format("POST", "/api/event", headers, body)
end
""")
    # The latency at the rate, not at saturation: each of the 32 connections waits 5 ms
    # between requests (wrk's delay()), about 5,000 a second; the same server's pages at that
    # pace just before say what this machine's load allows a p99 to be right now.
    paced = work / "event-paced.lua"
    paced.write_text(script.read_text() + "delay = function() return 5 end\n")
    pages_paced = work / "pages-paced.lua"
    pages_paced.write_text(f'local paths = {{{pages}}}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i], {{["Accept-Encoding"] = "gzip"}})\nend\ndelay = function() return 5 end\n')
    try:
        baseline = wrk(port, pages_paced)
        at_rate = wrk(port, paced)
        rps, _, total, non2xx = wrk(port, script)
    finally:
        proc.terminate()
        proc.wait()  # what was counted is written before the process ends
    counted = sqlite3.connect(data / "site.sqlite3").execute("SELECT COALESCE(SUM(count), 0) FROM stat_counts WHERE event = 1").fetchone()[0]
    growth = json.loads(subprocess.run([ROOT / "target/release/examples/stats_growth"], capture_output=True, text=True, check=True).stdout)
    row("POST /api/event, beacons of random visitors through a trusted edge (release, real disk, 32 connections): events/s", f"{rps:,.0f}", "", "", "≥ 5,000/s")
    row(f"POST /api/event: p99 latency at {at_rate[0]:,.0f} events/s", f"{at_rate[1]:.1f} ms", f"pages at {baseline[0]:,.0f}/s: {baseline[1]:.1f} ms", f"{at_rate[1] / baseline[1]:.2f}×", "< 20 ms")
    # wrk stops counting at its deadline; the server still counts what was in flight then.
    answered = total - non2xx + at_rate[2] - at_rate[3]
    row("POST /api/event: answered 204 / page views counted", f"{answered:,} / {counted:,}", "", "", "counted ≥ answered")
    row(f"statistics' database growth per {growth['page_views']:,} page views ({growth['days']} days of 1,000, {growth['visitors']:,} visits)",
        f"{growth['bytes'] / 1024:,.0f} KiB ({growth['rows']:,} rows)", "", "", "kilobytes, not megabytes")
    shutil.rmtree(data, ignore_errors=True)


def backup_bench(runs=3):
    """The restic backup (issue 36): how long one takes while the server serves (the first into
    an empty repository, then the next ones, deduplicated), and the server's p99 for pages while
    backups run back to back, beside its p99 without."""
    work = TMPFS / "backup"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    data = pathlib.Path(tempfile.mkdtemp(prefix="bench-backup-", dir="/var/tmp"))
    repo = pathlib.Path(tempfile.mkdtemp(prefix="bench-restic-", dir="/var/tmp"))
    settings = {"BACKUP_REPOSITORY": str(repo / "repo"), "BACKUP_PASSWORD": "haslo-do-pomiaru", "BACKUP_INTERVAL": "off"}
    proc, port = start_sidecar(work / "dist", data, settings)
    env = {**os.environ, "SITE_ROOT": str(ROOT), "DIST_DIR": str(work / "dist"), "DATA_DIR": str(data), "RUST_LOG": "error", **settings}
    script = pages_script(work)

    def one_backup():
        started = time.monotonic()
        subprocess.run([SIDECAR, "backup"], env=env, check=True, capture_output=True)
        return time.monotonic() - started

    stop = threading.Event()

    def back_to_back():
        while not stop.is_set():
            one_backup()

    try:
        first = one_backup()
        later = sorted(one_backup() for _ in range(runs))[runs // 2]
        quiet = wrk(port, script, 10)
        loop = threading.Thread(target=back_to_back)
        loop.start()
        busy = wrk(port, script, 10)
        stop.set()
        loop.join()
    finally:
        proc.terminate()
        proc.wait()
    row("restic backup of the database and content/ (first, into an empty repository)", f"{first:.1f} s", "", "", "")
    row(f"restic backup, later runs (median of {runs}, deduplicated)", f"{later:.1f} s", "", "", "")
    row("pages' p99 while backups run back to back", f"{busy[1]:.2f} ms", f"without {quiet[1]:.2f} ms", f"{busy[1] / quiet[1]:.2f}×", "")
    shutil.rmtree(data, ignore_errors=True)
    shutil.rmtree(repo, ignore_errors=True)


def sizes(files):
    raw = sum(len(b) for b in files)
    return raw, sum(len(gzip.compress(b, 6)) for b in files)


def page_bytes(dist):
    """HTML and CSS of each page kind as built; its JavaScript as a browser transfers it, on the
    first load and once every island's trigger has fired (islands load React only then)."""
    out = subprocess.run(["node", "measure-js.mjs", *PAGES], cwd=ROOT / "tests/e2e", check=True, capture_output=True, text=True,
                         env=dict(os.environ, CHROMIUM=os.environ.get("CHROMIUM", "/usr/bin/chromium")))
    scripts = {m["route"]: m for m in map(json.loads, out.stdout.splitlines())}
    for route in PAGES:
        html_path = dist / (route.strip("/") + "/index.html" if route != "/" else "index.html")
        html = html_path.read_bytes()
        text = html.decode()
        css = [dist / h.lstrip("/") for h in re.findall(r'<link rel="stylesheet" href="([^"]+)"', text)]
        h, c = sizes([html]), sizes([p.read_bytes() for p in css])
        js = scripts[route]
        row(f"bytes loaded by {route} (raw → gzip)", f"HTML {h[0]:,} → {h[1]:,}; CSS {c[0]:,} → {c[1]:,}", "", "", "")
        row(f"{route}: JavaScript transferred, first load → after every island's trigger",
            f"{js['first'] / 1024:.1f} KB → {js['after'] / 1024:.1f} KB", "", "", "≤ 10 KB on first load")


PHOTOS = int(os.environ.get("BENCH_PHOTOS", "200"))
WIDTHS = [480, 800, 1200, 1600]


def encoded_now(output):
    """The `N encoded now` of `site build`'s report."""
    match = re.search(r"(\d+) photographs in (\d+) variants, (\d+) encoded now", output)
    if not match:
        sys.exit(f"no image report in: {output}")
    return tuple(int(g) for g in match.groups())


def our_images(root, out, cache):
    """Builds `root` with its own image cache; returns (seconds, photographs, variants, encoded)."""
    env = dict(os.environ, IMAGE_CACHE_DIR=str(cache))
    start = time.perf_counter()
    done = subprocess.run([SITE, "build", "--root", root, "--out", out], env=env, check=True, capture_output=True, text=True)
    return (time.perf_counter() - start, *encoded_now(done.stdout))


def hugo_photos(photos):
    """Hugo on the same photographs: each resized to WIDTHS as WebP q80, cold (fresh caches)."""
    site = TMPFS / "hugo-photos"
    shutil.rmtree(site, ignore_errors=True)
    (site / "assets").mkdir(parents=True)
    shutil.copytree(photos, site / "assets/photos")
    write(site / "config.toml", 'baseURL = "http://example.org/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n')
    widths = " ".join(str(w) for w in WIDTHS)
    write(site / "layouts/index.html",
          '{{ range resources.Match "photos/*.jpg" }}{{ $img := . }}{{ range (slice ' + widths + ') }}'
          '{{ with $img.Resize (printf "%dx webp q80" .) }}<img src="{{ .RelPermalink }}" width="{{ .Width }}">{{ end }}{{ end }}{{ end }}\n')
    start = time.perf_counter()
    subprocess.run(["hugo", "--quiet", "-s", site, "--cacheDir", site / "cache", "-d", site / "public"], check=True, capture_output=True)
    seconds = time.perf_counter() - start
    made = len(list((site / "public").rglob("*.webp")))
    return seconds, made


def phone_bytes():
    routes = ["/", "/o-mnie", "/blog/pierwsza-wizyta"]
    out = subprocess.run(["node", "measure-images.mjs", *routes], cwd=ROOT / "tests/e2e", check=True, capture_output=True, text=True,
                         env=dict(os.environ, CHROMIUM=os.environ.get("CHROMIUM", "/usr/bin/chromium")))
    for line in out.stdout.splitlines():
        m = json.loads(line)
        after, before = m["after"], m["before"]
        row(f"{m['route']}: largest image a 390 px phone (3×) downloads", f"{after['bytes'] / 1024:.1f} KiB ({after['url'].rsplit('/', 1)[-1]})",
            f"before: {before['bytes'] / 1024:.1f} KiB ({before['url'].rsplit('/', 1)[-1]})",
            f"{after['bytes'] / before['bytes']:.2f}×" if before["bytes"] else "", "")


def images():
    """Encoding the real site's photographs and 200 generated ones, cold and warm, against Hugo."""
    cache = TMPFS / "image-cache"
    shutil.rmtree(cache, ignore_errors=True)
    s, photos, variants, encoded = our_images(ROOT, TMPFS / "images-dist", cache)
    row(f"real site: cold encode of its {photos} photographs ({variants} variants: AVIF, WebP, own format)", f"{s:.1f} s, {encoded} encoded", "", "", "")
    s, _, _, encoded = our_images(ROOT, TMPFS / "images-dist", cache)
    row("real site: rebuild with nothing changed", f"{s * 1000:.0f} ms, {encoded} encoded", "", "", "0 encoded")
    photos_dir = TMPFS / "photos"
    subprocess.run([ROOT / "target/release/examples/photos", photos_dir, str(PHOTOS)], check=True)
    corpus = TMPFS / "photo-site"
    shutil.rmtree(corpus, ignore_errors=True)
    for d in ["content", "templates"]:
        shutil.copytree(ROOT / d, corpus / d)
    (corpus / "islands").mkdir()
    os.symlink(ROOT / "islands/build", corpus / "islands/build")
    shutil.copytree(photos_dir, corpus / "content/images/bench")
    cache = TMPFS / "photo-cache"
    shutil.copytree(TMPFS / "image-cache", cache)  # the real site's own photographs are not what is measured
    s, photos, variants, encoded = our_images(corpus, TMPFS / "photo-dist", cache)
    hugo_s, hugo_made = hugo_photos(photos_dir)
    row(f"{PHOTOS} photographs 3000×2000, cold: {encoded} variants (AVIF + WebP + JPEG × 4 widths)", f"{s:.1f} s ({encoded / s:.1f} variants/s)",
        f"Hugo {hugo_s:.1f} s for {hugo_made} (WebP only, {hugo_made / hugo_s:.1f}/s)", f"{s / hugo_s:.2f}× the time, {encoded / max(hugo_made, 1):.1f}× the files", "")
    s, _, _, encoded = our_images(corpus, TMPFS / "photo-dist", cache)
    row(f"{PHOTOS} photographs: rebuild with nothing changed", f"{s * 1000:.0f} ms, {encoded} encoded", "", "", "0 encoded")
    phone_bytes()


def pages_script(work):
    """The pages' load test's wrk script: the nine page kinds in turn, gzip accepted."""
    paths = ", ".join(f'"{p}"' for p in PAGES)
    script = work / "pages.lua"
    script.write_text(f'local paths = {{{paths}}}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i], {{["Accept-Encoding"] = "gzip"}})\nend\n')
    return script


class PagesLoad:
    """The pages' load test (wrk, 2 threads, 32 connections) against `port` for as long as the
    `with` block runs: what a push is measured under, never an idle machine."""

    def __init__(self, port, work):
        self.port, self.script = port, pages_script(work)

    def __enter__(self):
        self.proc = subprocess.Popen(["wrk", "-t2", f"-c{CONNECTIONS}", "-d3600s", "-s", str(self.script),
                                      f"http://127.0.0.1:{self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)  # wrk's connections are open and busy before the first push
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait()


def percentiles(times):
    """p50 and p95 of `times` (seconds), in milliseconds."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return statistics.median(ordered) * 1000, p95 * 1000


def git(cwd, *args):
    return subprocess.run(["git", "-C", str(cwd), "-c", "core.hooksPath=/dev/null", "-c", "user.name=Ewa Redaktorka",
                           "-c", "user.email=ewa@example.pl", *map(str, args)], check=True, capture_output=True, text=True).stdout.strip()


def static_edge(work):
    """The edge: what PUBLISH_CMD syncs with rclone, served by nginx (as a CDN's origin would
    be). Returns nginx's process, its port and the PUBLISH_CMD that fills it."""
    edge_port = free_port()
    edge_root = work / "edge"
    edge_root.mkdir()
    conf = work / "edge.conf"
    # The work folder is private (mkdtemp): as root, the workers must be root to read it.
    user = "user root root;\n" if os.geteuid() == 0 else ""
    conf.write_text(f"""{user}worker_processes 1;
pid {work}/edge.pid;
error_log {work}/edge-error.log;
events {{ worker_connections 64; }}
http {{
  access_log off;
  open_file_cache off;
  client_body_temp_path {work}/tmp;
  server {{
    listen 127.0.0.1:{edge_port};
    root {edge_root};
    location / {{ try_files $uri $uri/index.html =404; }}
  }}
}}
""")
    edge = subprocess.Popen(["nginx", "-c", str(conf), "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_port(edge_port, edge)
    return edge, edge_port, f"rclone sync --config /dev/null \"$DIST_DIR/\" '{edge_root}'"


def git_sync(runs=GIT_RUNS):
    """`git push` + the forge's webhook → the article served, while the pages' load test runs
    against the same server; 'Zapisz zmiany' → the commit on the remote."""
    import hashlib, hmac, http.cookiejar
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-git-"))
    root, remote, editor = work / "site", work / "remote.git", work / "editor"
    for sub in ["content", "templates", "islands/build"]:
        shutil.copytree(ROOT / sub, root / sub)
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(remote)], check=True)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "Strona")
    git(root, "push", "-q", remote, "HEAD:refs/heads/main")
    subprocess.run(["git", "clone", "-q", str(remote), str(editor)], check=True)
    secret, admin, password = "bench-secret", "magda@gabinet-harmonia.pl", "hasło do pomiaru"
    admin_port = free_port()
    edge, edge_port, publish = static_edge(work)
    proc, port = start_sidecar(work / "dist", work / "var", {"SITE_ROOT": str(root), "ADMIN_PORT": str(admin_port),
        "ADMIN_EMAIL": admin, "ADMIN_PASSWORD": password, "GIT_REMOTE": str(remote), "GIT_BRANCH": "main",
        "GIT_POLL_SECONDS": "0", "GIT_WEBHOOK_SECRET": secret, "IMAGE_CACHE_DIR": str(ROOT / ".cache/images"),
        "PUBLISH_CMD": publish})
    base = f"http://127.0.0.1:{port}"
    edge_base = f"http://127.0.0.1:{edge_port}"
    template = (ROOT / "content/blog/terapia-cbt.md").read_text()

    def served(route, at=None):
        try:
            return urllib.request.urlopen((at or base) + route).status == 200
        except OSError:
            return False

    def wait(what, check, limit=60):
        deadline = time.perf_counter() + limit
        while not check():
            if time.perf_counter() > deadline:
                sys.exit(f"git sync bench: {what} did not happen within {limit} s")
            time.sleep(0.01)

    try:
        pushed, at_edge = [], []
        with PagesLoad(port, work):
            for i in range(runs):
                slug = f"pomiar-{i}"
                (editor / f"content/blog/{slug}.md").write_text(template.replace("featured: true", "featured: false"))
                git(editor, "add", "-A")
                git(editor, "commit", "-q", "-m", f"Pomiar {i}")
                start = time.perf_counter()
                git(editor, "push", "-q", "origin", "HEAD:main")
                body = json.dumps({"ref": "refs/heads/main", "after": f"bench-{i}"}).encode()
                signature = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
                urllib.request.urlopen(urllib.request.Request(f"{base}/api/git/push", data=body, method="POST", headers={
                    "Content-Type": "application/json", "X-GitHub-Delivery": f"bench-{i}", "X-Hub-Signature-256": signature}))
                wait("the pushed article is served", lambda: served(f"/blog/{slug}"))
                pushed.append(time.perf_counter() - start)
                wait("the pushed article is served by the edge", lambda: served(f"/blog/{slug}", edge_base))
                at_edge.append(time.perf_counter() - start)
        panel = f"http://localhost:{admin_port}"
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

        def call(method, path, data=None):
            req = urllib.request.Request(panel + path, method=method, data=json.dumps(data).encode() if data is not None else None,
                                         headers={"Content-Type": "application/json", "Origin": panel})
            return json.loads(opener.open(req).read() or b"null")

        call("POST", "/api/auth/login", {"email": admin, "password": password})
        saved = []
        for i in range(runs):
            page = next(p for p in call("GET", "/api/pages") if p["id"] == "pages/cennik")
            before = git(remote, "rev-parse", "main")
            start = time.perf_counter()
            call("PUT", "/api/pages/pages/cennik", {"content": {"sections": [{"type": "text", "content": f"Cennik, pomiar {i}."}]}, "version": page["version"]})
            wait("the save is on the remote", lambda: git(remote, "rev-parse", "main") != before)
            saved.append(time.perf_counter() - start)
    finally:
        proc.terminate()
        proc.wait()
        edge.terminate()
        edge.wait()
        shutil.rmtree(work, ignore_errors=True)
    p50, p95 = percentiles(pushed)
    row(f"forge: git push + signed webhook → new article served by the sidecar, pages' load test running ({runs} pushes)", f"p50 {p50:.0f} ms, p95 {p95:.0f} ms", "Decap/Keystatic: a CI build, minutes", "", "p50 ≤ 1 s, p95 ≤ 2 s")
    p50, p95 = percentiles(at_edge)
    row(f"forge: git push + signed webhook → new article served by the nginx edge (PUBLISH_CMD rclone sync), under the same load", f"p50 {p50:.0f} ms, p95 {p95:.0f} ms", "Decap/Keystatic: a CI build, minutes", "", "")
    row(f"'Zapisz zmiany' (PUT) → the administrator's commit on the remote (median of {runs})", f"{statistics.median(saved) * 1000:.0f} ms", "", "", "")


def git_hosted(runs=GIT_RUNS):
    """GIT_HOSTED=1: an editor's `git push` over HTTP with a token → the article served (the
    check and the publish the push waits for), while the pages' load test runs against the
    same server, and a push the check refuses, round trip."""
    import base64, http.cookiejar
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-hosted-"))
    root, editor = work / "site", work / "editor"
    for sub in ["content", "templates", "islands/build"]:
        shutil.copytree(ROOT / sub, root / sub)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "Strona")
    admin, password = "magda@gabinet-harmonia.pl", "hasło do pomiaru"
    admin_port = free_port()
    edge, edge_port, publish = static_edge(work)
    proc, port = start_sidecar(work / "dist", work / "var", {"SITE_ROOT": str(root), "ADMIN_PORT": str(admin_port),
        "ADMIN_EMAIL": admin, "ADMIN_PASSWORD": password, "GIT_HOSTED": "1", "GIT_POLL_SECONDS": "0",
        "IMAGE_CACHE_DIR": str(ROOT / ".cache/images"), "PUBLISH_CMD": publish})
    base, panel = f"http://127.0.0.1:{port}", f"http://localhost:{admin_port}"
    edge_base = f"http://127.0.0.1:{edge_port}"
    template = (ROOT / "content/blog/terapia-cbt.md").read_text().replace("featured: true", "featured: false")
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(method, path, data=None):
        req = urllib.request.Request(panel + path, method=method, data=json.dumps(data).encode() if data is not None else None,
                                     headers={"Content-Type": "application/json", "Origin": panel})
        return json.loads(opener.open(req).read() or b"null")

    def served(route, at=None):
        try:
            return urllib.request.urlopen((at or base) + route).status == 200
        except OSError:
            return False

    def push():
        return subprocess.run(["git", "-C", str(editor), "push", "-q", "origin", "HEAD:main"], capture_output=True,
                              env={**os.environ, "GIT_TERMINAL_PROMPT": "0"}).returncode == 0

    try:
        call("POST", "/api/auth/login", {"email": admin, "password": password})
        call("POST", "/api/auth/reauth", {"password": password})
        token = call("POST", "/api/git/tokens", {"name": "Pomiar"})["token"]
        url = f"http://redaktorka:{token}@127.0.0.1:{admin_port}/git/tresc.git"
        subprocess.run(["git", "clone", "-q", url, str(editor)], check=True)
        pushed, at_edge, refused, live_at_once = [], [], [], 0
        with PagesLoad(port, work):
            for i in range(runs):
                slug = f"pomiar-{i}"
                (editor / f"content/blog/{slug}.md").write_text(template)
                git(editor, "add", "-A")
                git(editor, "commit", "-q", "-m", f"Pomiar {i}")
                start = time.perf_counter()
                if not push():
                    sys.exit("hosted git bench: a good push was refused")
                # The push returns once the article is live: served at the first look.
                live_at_once += served(f"/blog/{slug}")
                deadline = start + 60
                for at, times in [(base, pushed), (edge_base, at_edge)]:
                    while not served(f"/blog/{slug}", at):
                        if time.perf_counter() > deadline:
                            sys.exit(f"hosted git bench: the pushed article was not served by {at} within 60 s")
                        time.sleep(0.01)
                    times.append(time.perf_counter() - start)
            for i in range(min(runs, 5)):
                (editor / "content/blog/zepsuty.md").write_text(template + "\n## Dlaczego to działa\n\nTekst.\n")
                git(editor, "add", "-A")
                git(editor, "commit", "-q", "-m", f"Zepsuty {i}")
                start = time.perf_counter()
                if push():
                    sys.exit("hosted git bench: a broken push was taken")
                refused.append(time.perf_counter() - start)
                git(editor, "reset", "-q", "--hard", "origin/main")
    finally:
        proc.terminate()
        proc.wait()
        edge.terminate()
        edge.wait()
        shutil.rmtree(work, ignore_errors=True)
    p50, p95 = percentiles(pushed)
    row(f"hosted: git push over HTTP (token) → new article served by the sidecar, checked before it is taken, pages' load test running ({runs} pushes; served when the push returned: {live_at_once} of {runs})",
        f"p50 {p50:.0f} ms, p95 {p95:.0f} ms", "Decap/Keystatic: a CI build, minutes", "", "p50 ≤ 1 s, p95 ≤ 2 s")
    p50, p95 = percentiles(at_edge)
    row(f"hosted: git push over HTTP (token) → new article served by the nginx edge (PUBLISH_CMD rclone sync), under the same load",
        f"p50 {p50:.0f} ms, p95 {p95:.0f} ms", "Decap/Keystatic: a CI build, minutes", "", "")
    row(f"hosted: a push the check refuses (Polish problems in the push's output), round trip, under the same load (median of {len(refused)})",
        f"{statistics.median(refused) * 1000:.0f} ms", "a forge + CI: the failure arrives by e-mail, minutes", "", "")


def upload_photo(runs=3):
    """A 4 MB phone photograph (4000×3000 JPEG, quality 92) sent to 'Obrazy' of the sidecar
    `make run` builds (debug): the upload until the picture is stored and served (usable: a page
    may show it), and until its variants are encoded (the panel's `pending` turns false). Each run
    a different photograph, on an image cache of its own (nothing encoded before)."""
    import http.cookiejar
    debug_sidecar = ROOT / "target/debug/sidecar"
    photos_bin = next((p for p in [ROOT / "target/release/examples/photos", ROOT / "target/debug/examples/photos"] if p.exists()), None)
    if not debug_sidecar.exists() or not (ROOT / "target/debug/imaging").exists() or photos_bin is None:
        sys.exit("upload bench: needs target/debug/sidecar and imaging (cargo build -p sidecar -p imaging) and the photos example")
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-upload-", dir=TMPFS))
    subprocess.run([photos_bin, work / "photos", str(runs), "4000x3000", "92"], check=True)
    root = work / "site"
    for sub in ["content", "templates", "islands/build"]:
        shutil.copytree(ROOT / sub, root / sub)
    admin, password = "magda@gabinet-harmonia.pl", "hasło do pomiaru"
    port, admin_port = free_port(), free_port()
    env = {**os.environ, "PORT": str(port), "ADMIN_PORT": str(admin_port), "SITE_ROOT": str(root), "DIST_DIR": str(work / "dist"),
           "DATA_DIR": str(work / "var"), "RUST_LOG": "error", "ADMIN_EMAIL": admin, "ADMIN_PASSWORD": password,
           "IMAGE_CACHE_DIR": str(work / "cache")}
    # The site's own photographs are encoded before measuring: only the upload's are measured.
    if (ROOT / ".cache/images").exists():
        shutil.copytree(ROOT / ".cache/images", work / "cache")
    proc = subprocess.Popen([debug_sidecar], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_port(port, proc)
    wait_port(admin_port, proc)
    panel, base = f"http://localhost:{admin_port}", f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(method, path, data=None, content_type="application/json"):
        body = data if isinstance(data, bytes) else json.dumps(data).encode() if data is not None else None
        req = urllib.request.Request(panel + path, method=method, data=body, headers={"Content-Type": content_type, "Origin": panel})
        return json.loads(opener.open(req, timeout=300).read() or b"null")

    def idle():
        return json.loads(urllib.request.urlopen(base + "/api/health").read())["images"] == 0

    usable, variants, sizes = [], [], []
    try:
        deadline = time.perf_counter() + 600
        while not idle():
            if time.perf_counter() > deadline:
                sys.exit("upload bench: the site's own photographs were not encoded within 10 minutes")
            time.sleep(0.2)
        call("POST", "/api/auth/login", {"email": admin, "password": password})
        for i, photo in enumerate(sorted((work / "photos").glob("*.jpg"))):
            data = photo.read_bytes()
            sizes.append(len(data))
            start = time.perf_counter()
            stored = call("POST", f"/api/images?name=telefon-{i}.jpg&alt=Zdj%C4%99cie%20z%20telefonu", data, "image/jpeg")
            assert urllib.request.urlopen(base + stored["url"]).status == 200
            usable.append(time.perf_counter() - start)
            while any(p["pending"] for p in call("GET", "/api/images") if p["file"] == stored["file"]):
                if time.perf_counter() - start > 600:
                    sys.exit("upload bench: variants not done within 10 minutes")
                time.sleep(0.05)
            variants.append(time.perf_counter() - start)
    finally:
        proc.terminate()
        proc.wait()
        shutil.rmtree(work, ignore_errors=True)
    mb = statistics.median(sizes) / 1024 / 1024
    row(f"'Obrazy': a {mb:.1f} MB phone photograph (4000×3000 JPEG) uploaded → stored and served, usable (debug sidecar of `make run`, median of {runs})",
        f"{statistics.median(usable) * 1000:.0f} ms", "57 s before", "", "≤ 5 s")
    row(f"… → its variants encoded in the background (AVIF, WebP, widths; median of {runs})", f"{statistics.median(variants):.1f} s", "", "", "")


def seconds(s):
    return f"{s:.0f} s" if s < 120 else f"{int(s // 60)} min {s % 60:.0f} s"


def run_until_served(clone, env, log_path, photographs=None):
    """`make run` in `clone` until its first page answers: the seconds it took. With
    `photographs` (a dict), also how long until the panel's sign-in answers (the whole server
    compiled after the public site's and started in its place), in `photographs["panel"]`, and
    until the home page shows its photographs' AVIF variants (the image worker compiled after
    it, and the variants made), in `photographs["s"]`."""
    port, admin_port = free_port(), free_port()
    env = {**env, "PORT": str(port), "ADMIN_PORT": str(admin_port), "RUST_LOG": "warn"}
    env.pop("IMAGE_CACHE_DIR", None)
    with open(log_path, "wb") as log:
        started = time.perf_counter()
        proc = subprocess.Popen(["make", "run"], cwd=clone, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            while True:
                if proc.poll() is not None:
                    tail = log_path.read_text(errors="replace")[-3000:]
                    sys.exit(f"make run stopped before it served a page:\n{tail}")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                        if answer.status == 200:
                            served = time.perf_counter() - started
                            break
                except OSError:
                    time.sleep(0.5)
            if photographs is not None:
                panel = f"http://localhost:{admin_port}/administratormagda"
                while time.perf_counter() - started < 1800 and "s" not in photographs:
                    if "panel" not in photographs:
                        try:
                            # 503 (an HTTPError, an OSError) while the panel compiles.
                            with urllib.request.urlopen(panel, timeout=5) as answer:
                                if answer.status == 200:
                                    photographs["panel"] = time.perf_counter() - started
                        except OSError:
                            pass
                    try:
                        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                            if b".avif" in answer.read():
                                photographs["s"] = time.perf_counter() - started
                    except OSError:
                        pass
                    time.sleep(1)
            return served
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, 15)
            proc.wait()


def fresh_clone(with_test=True):
    """A newcomer's first contact. A fresh clone's `make run` until the first page
    answers, with an empty cargo cache (CARGO_HOME and CARGO_TARGET_DIR in a new folder; the
    registries are reached), then a fresh clone's `make test` (its own empty target folder;
    the crates downloaded by the first)."""
    work = pathlib.Path(tempfile.mkdtemp(prefix="harmonia-fresh-", dir=ROOT / "target"))
    cargo_home = work / "cargo-home"
    try:
        clone = work / "run"
        subprocess.run(["git", "clone", "--quiet", "--no-local", str(ROOT), str(clone)], check=True)
        env = {**os.environ, "CARGO_HOME": str(cargo_home), "CARGO_TARGET_DIR": str(work / "target-run")}
        photographs = {}
        run_s = run_until_served(clone, env, work / "make-run.log", photographs)
        row("fresh clone: `make run` until the first page (empty cargo cache: crates downloaded and compiled, npm ci, islands; the public site's server first, the panel and then the image worker after it)",
            seconds(run_s), "", "", "≤ 180 s")
        row("… until the panel's sign-in answers (the whole server compiled and started in the public one's place)",
            seconds(photographs["panel"]) if "panel" in photographs else "not within 30 min", "", "", "")
        row("… until the home page shows its photographs' variants (the image worker compiled, the variants made)",
            seconds(photographs["s"]) if "s" in photographs else "not within 30 min", "", "", "")
        if not with_test:
            return
        clone = work / "test"
        subprocess.run(["git", "clone", "--quiet", "--no-local", str(ROOT), str(clone)], check=True)
        env = {**os.environ, "CARGO_HOME": str(cargo_home), "CARGO_TARGET_DIR": str(work / "target-test")}
        env.pop("IMAGE_CACHE_DIR", None)
        test_s, _ = measured(["make", "test"], env=env, cwd=clone)
        row("fresh clone: `make test` (empty target folder; the crates downloaded above)", seconds(test_s), "", "", "≤ 12 min")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def against_zola():
    """A fresh clone's `make run` until its first page, and Zola's first build (`cargo build`
    in a clone of its repository, ZOLA_SOURCE), started at the same moment on this machine,
    each with an empty cargo home and target folder of its own: both download their crates and
    compile them on the same cores, as two newcomers would."""
    source = os.environ.get("ZOLA_SOURCE")
    if not source:
        row("first run against Zola's first build, side by side", "not measured: set ZOLA_SOURCE to a clone of github.com/getzola/zola", "", "", "≤ 0.6×")
        return
    work = pathlib.Path(tempfile.mkdtemp(prefix="harmonia-zola-", dir=ROOT / "target"))
    try:
        ours, zola = work / "ours", work / "zola"
        subprocess.run(["git", "clone", "--quiet", "--no-local", str(ROOT), str(ours)], check=True)
        subprocess.run(["git", "clone", "--quiet", "--no-local", source, str(zola)], check=True)
        zola_env = {**os.environ, "CARGO_HOME": str(work / "zola-cargo-home"), "CARGO_TARGET_DIR": str(work / "zola-target")}
        our_env = {**os.environ, "CARGO_HOME": str(work / "our-cargo-home"), "CARGO_TARGET_DIR": str(work / "our-target")}
        timed = {}

        def zola_build():
            started = time.perf_counter()
            with open(work / "zola-build.log", "wb") as log:
                subprocess.run(["cargo", "build"], cwd=zola, env=zola_env, stdout=log, stderr=subprocess.STDOUT, check=True)
            timed["zola"] = time.perf_counter() - started

        beside = threading.Thread(target=zola_build)
        beside.start()
        timed["ours"] = run_until_served(ours, our_env, work / "make-run.log")
        beside.join()
        crates = lambda lock: (lock / "Cargo.lock").read_text().count("[[package]]")
        row(f"first run, side by side with Zola's first build (empty cargo homes, started together; {crates(ours)} crates against {crates(zola)})",
            seconds(timed["ours"]), f"Zola {seconds(timed['zola'])}", f"{timed['ours'] / timed['zola']:.2f}×", "≤ 0.6×")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def table():
    print("| measurement | this site | comparison | ratio | target |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


def build_rows(small, large):
    """The clean builds against Hugo at two sizes, the edits at the larger, the publish gate."""
    build_pair(small)
    ours, clean_s = build_pair(large)
    incremental(ours, large, clean_s)
    gate_rows(large)


def smoke():
    """Every build row once on a small corpus with the debug binary; fails if one cannot run."""
    global TMPFS
    if not SITE.exists():
        sys.exit(f"{SITE} is missing: run `cargo build -p site` (make compile builds it)")
    n = int(os.environ.get("BENCH_ARTICLES", "100"))
    TMPFS = pathlib.Path(tempfile.mkdtemp(prefix="harmonia-bench-smoke-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    try:
        ours, clean_s = build_pair(n)
        incremental(ours, n, clean_s)
        gate_rows(n, sizes=[n])
    finally:
        shutil.rmtree(TMPFS, ignore_errors=True)
    print(f"make bench's build rows ran once each on {n} articles (the debug build: its times say nothing)")
    table()


def main():
    if SMOKE:
        return smoke()
    only = os.environ.get("BENCH_ONLY")
    if only in ("images", "build", "gate", "fresh", "fresh-run", "zola", "git", "upload", "contact", "pages", "backup", "stats"):
        TMPFS.mkdir(parents=True, exist_ok=True)
        if only == "images":
            images()
        elif only == "contact":
            contact()
        elif only == "stats":
            stats_bench()
        elif only == "backup":
            backup_bench()
        elif only == "pages":
            real_dist = TMPFS / "real-dist"
            subprocess.run([SITE, "build", "--root", ROOT, "--out", real_dist], check=True, stdout=subprocess.DEVNULL)
            page_bytes(real_dist)
        elif only == "git":
            git_sync()
            git_hosted()
        elif only == "upload":
            upload_photo()
        elif only == "build":
            build_rows(1000, 10000)
        elif only == "gate":
            gate_rows(10000)
        elif only == "zola":
            against_zola()
        else:
            fresh_clone(with_test=only == "fresh")
        table()
        shutil.rmtree(TMPFS, ignore_errors=True)
        return
    for tool, path in [("site", SITE), ("sidecar", SIDECAR)]:
        if not path.exists():
            sys.exit(f"{path} is missing: run `cargo build --release` (make bench does)")
    TMPFS.mkdir(parents=True, exist_ok=True)
    real_dist = TMPFS / "real-dist"
    subprocess.run([SITE, "build", "--root", ROOT, "--out", real_dist], check=True, stdout=subprocess.DEVNULL)  # warms the island cache
    s, mb = median_of([SITE, "build", "--root", ROOT, "--out", real_dist], 5)
    row("real site: full build (islands SSR cached)", f"{s * 1000:.0f} ms, {mb:.0f} MiB peak", "", "", "< 100 ms")
    build_rows(1000, 10000)
    serving()
    contact()
    stats_bench()
    backup_bench()
    page_bytes(real_dist)
    images()
    upload_photo()
    git_sync()
    git_hosted()
    # Last: they take the machine for a long time.
    fresh_clone()
    against_zola()
    table()
    shutil.rmtree(TMPFS, ignore_errors=True)


if __name__ == "__main__":
    main()
