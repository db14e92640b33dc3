#!/usr/bin/env python3
"""`make abuse`: the attacks of issue 12 against the release sidecar on loopback, bounded in count
and time, printed as one Markdown table. The attacker and the admin use different loopback
addresses (127.0.0.2, 127.0.0.3, ... are all this machine)."""
import concurrent.futures as futures, http.client, json, os, pathlib, shutil, socket, statistics, subprocess, sys, tempfile, threading, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIDECAR = ROOT / "target/release/sidecar"
ADMIN = "magda@gabinet-harmonia.pl"
PASSWORD = "hasło administratora do testów obciążenia"
rows = []
five_xx = []


def row(what, result, target=""):
    rows.append((what, result, target))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, method, path, body=None, source="127.0.0.2", headers=None, timeout=60):
    """One request from the loopback address `source`: (status, seconds, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    payload = json.dumps(body) if isinstance(body, (dict, list)) else body
    all_headers = {"Host": f"127.0.0.1:{port}"}
    if isinstance(body, (dict, list)):
        all_headers["Content-Type"] = "application/json"
    all_headers.update(headers or {})
    started = time.perf_counter()
    try:
        conn.request(method, path, body=payload, headers=all_headers)
        answer = conn.getresponse()
        data = answer.read()
        status = answer.status
    except (OSError, http.client.HTTPException) as e:
        status, data = 0, str(e).encode()
    seconds = time.perf_counter() - started
    conn.close()
    if status >= 500 or status == 0:
        five_xx.append((method, path, status))
    return status, seconds, data


def start(data, extra=None):
    port = free_port()
    env = dict(os.environ, PORT=str(port), SITE_ROOT=str(ROOT), DIST_DIR=str(data / "dist"), DATA_DIR=str(data / "var"),
               ADMIN_EMAIL=ADMIN, ADMIN_PASSWORD=PASSWORD, RUST_LOG="error", **(extra or {}))
    proc = subprocess.Popen([SIDECAR], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            if proc.poll() is not None:
                sys.exit(f"the sidecar exited: {proc.stderr.read().decode()}")
            time.sleep(0.05)
    sys.exit("the sidecar did not start")


def peak_memory_mib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def resident_mib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def login(port, source, password="zgadywane hasło"):
    return request(port, "POST", "/api/auth/login", {"email": ADMIN, "password": password}, source=source)


def burst_of_sign_ins(port, n, source):
    with futures.ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(lambda _: login(port, source)[0], range(n)))


def measure_sign_in_bursts(data):
    proc, port = start(data / "a")
    try:
        statuses = burst_of_sign_ins(port, 60, "127.0.0.2")
        guessed = sum(1 for s in statuses if s != 429)
        row("60 concurrent wrong sign-ins for one account, one client: answers other than 429", f"{guessed} (all {sorted(set(statuses))})", "≤ 5")
        admin = login(port, "127.0.0.3", PASSWORD)[0]
        row("the admin signs in from another address right after", f"{admin}", "200")
        before = resident_mib(proc.pid)
        sampled = [before]
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                sampled.append(resident_mib(proc.pid))
                time.sleep(0.01)

        sampler = threading.Thread(target=sample)
        sampler.start()
        # 300 connections from 300 addresses: every one of them gets its free guesses.
        with futures.ThreadPoolExecutor(max_workers=300) as pool:
            list(pool.map(lambda i: login(port, f"127.0.{1 + i // 250}.{2 + i % 250}")[0], range(300)))
        stop.set()
        sampler.join()
        row("peak resident memory during a 300-connection sign-in burst (300 clients)", f"{max(sampled):.0f} MiB (before {before:.0f} MiB; VmHWM {peak_memory_mib(proc.pid):.0f} MiB)", "argon2 at most 2 at once")
    finally:
        proc.terminate()
        proc.wait()


def measure_contact_refusals(data):
    proc, port = start(data / "b", {"CONTACT_RATE_PER_MINUTE": "1"})
    try:
        body = "name=&email=x&countryCode=%2B48&message="
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        request(port, "POST", "/api/contact", body, headers=form)
        times = []
        for _ in range(200):
            status, seconds, _ = request(port, "POST", "/api/contact", {"name": "x"}, source="127.0.0.2")
            assert status == 429, status
            times.append(seconds)
        form_times = []
        for _ in range(200):
            status, seconds, _ = request(port, "POST", "/api/contact", body, source="127.0.0.2", headers=form)
            assert status == 429, status
            form_times.append(seconds)
        row("refused contact post (429, JSON), per request on loopback", f"median {statistics.median(times) * 1e6:.0f} µs, p99 {sorted(times)[197] * 1e6:.0f} µs", "microseconds")
        row("refused contact post (429, form: a kept answer page)", f"median {statistics.median(form_times) * 1e6:.0f} µs, p99 {sorted(form_times)[197] * 1e6:.0f} µs", "microseconds")
    finally:
        proc.terminate()
        proc.wait()


def measure_home_under_attack(data):
    proc, port = start(data / "c", {"CONTACT_RATE_PER_MINUTE": "100000"})
    try:
        stop = threading.Event()
        latencies = []

        def visitor():
            while not stop.is_set():
                status, seconds, _ = request(port, "GET", "/", source="127.0.0.9")
                if status == 200:
                    latencies.append(seconds)

        def form_posts():
            body = "name=Jan&email=jan%40example.pl&countryCode=%2B48&message=Tre%C5%9B%C4%87"
            form = {"Content-Type": "application/x-www-form-urlencoded"}
            with futures.ThreadPoolExecutor(max_workers=20) as pool:
                list(pool.map(lambda i: request(port, "POST", "/api/contact", body, source=f"127.0.3.{2 + i % 200}", headers=form), range(1000)))

        def sign_ins():
            with futures.ThreadPoolExecutor(max_workers=30) as pool:
                list(pool.map(lambda i: login(port, f"127.0.4.{2 + i % 200}"), range(300)))

        visitors = [threading.Thread(target=visitor) for _ in range(4)]
        for v in visitors:
            v.start()
        started = time.perf_counter()
        attack = [threading.Thread(target=form_posts), threading.Thread(target=sign_ins)]
        for a in attack:
            a.start()
        for a in attack:
            a.join()
        elapsed = time.perf_counter() - started
        stop.set()
        for v in visitors:
            v.join()
        latencies.sort()
        p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
        row("GET / while 1,000 form posts and 300 sign-ins run", f"p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms over {len(latencies)} requests ({elapsed:.1f} s of attack)")
    finally:
        proc.terminate()
        proc.wait()


def admin_cookie(admin_port, source):
    """Signs the administrator in on `admin_port`: the session cookie (`name=value`)."""
    conn = http.client.HTTPConnection("127.0.0.1", admin_port, timeout=60, source_address=(source, 0))
    conn.request("POST", "/api/auth/login", body=json.dumps({"email": ADMIN, "password": PASSWORD}),
                 headers={"Host": f"127.0.0.1:{admin_port}", "Content-Type": "application/json"})
    answer = conn.getresponse()
    answer.read()
    cookie = (answer.getheader("Set-Cookie") or "").split(";")[0]
    conn.close()
    if answer.status != 200 or not cookie:
        sys.exit(f"the administrator could not sign in: {answer.status}")
    return cookie


def nested_section_rows(admin_port, source="127.0.0.5"):
    """Issue 21: a section of nested quotes, saved and previewed from the panel on `admin_port`
    (the port the admin API answers on): refused before anything parses it."""
    cookie = {"Cookie": admin_cookie(admin_port, source)}
    _, _, body = request(admin_port, "GET", "/api/pages", source=source, headers=cookie)
    version = next(p["version"] for p in json.loads(body) if p["id"] == "pages/cennik")
    nested = "Wstęp.\n\n" + ">" * (120 * 1024) + "x"
    sections = [{"type": "text", "content": nested}]
    for what, method, path, payload in [
        ("save", "PUT", "/api/pages/pages/cennik", {"content": {"sections": sections}, "version": version}),
        ("preview", "POST", "/api/preview/pages/cennik", {"content": {"sections": sections}}),
    ]:
        times, statuses = [], set()
        for _ in range(20):
            status, seconds, _ = request(admin_port, method, path, payload, source=source, headers=cookie)
            statuses.add(status)
            times.append(seconds)
        times.sort()
        row(f"{what} of a section of 120 KiB of nested '>' (20 times)",
            f"{'/'.join(map(str, sorted(statuses)))} in p50 {times[10] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms",
            "422, refused before parsing (the sanitiser's quadratic work: ~20 s of a core before)")
    huge = [{"type": "text", "content": ">" * (1024 * 1024)}]
    status, seconds, _ = request(admin_port, "POST", "/api/preview/pages/cennik", {"content": {"sections": huge}},
                                 source=source, headers=cookie)
    row("preview of a 1 MiB section of nested '>'", f"{status} in {seconds * 1000:.1f} ms", "413, refused before parsing")


def measure_nested_section(data):
    proc, port = start(data / "d")
    try:
        nested_section_rows(port)
    finally:
        proc.terminate()
        proc.wait()


def main():
    if not SIDECAR.exists():
        sys.exit("build it first: cargo build --release -p sidecar")
    data = pathlib.Path(tempfile.mkdtemp(prefix="harmonia-abuse-"))
    try:
        measure_sign_in_bursts(data)
        measure_contact_refusals(data)
        measure_home_under_attack(data)
        measure_nested_section(data)
        row("requests answered 5xx (or not at all) in all of the above", f"{len(five_xx)}", "0")
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print("| attack | result | expected |\n|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
