#!/usr/bin/env python3
"""`make abuse`: the attacks of issues 12, 21, 30, 42 and 47 against the release sidecar on loopback, bounded in
count and time, printed as one Markdown table. The attacker and the admin use different loopback
addresses (127.0.0.2, 127.0.0.3, ... are all this machine)."""
import base64, collections, concurrent.futures as futures, hashlib, hmac, http.client, json, os, pathlib, re, resource, select, shutil, socket, statistics, struct, subprocess, sys, tempfile, threading, time, zlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIDECAR = pathlib.Path(os.environ.get("SIDECAR", ROOT / "target/release/sidecar"))
ADMIN = "magda@gabinet-harmonia.pl"
PASSWORD = "hasło administratora do testów obciążenia"
rows = []
five_xx = []
# The panel's port of each server by its public port: sign-ins go to the panel's listener.
PANEL = {}


def row(what, result, target=""):
    rows.append((what, result, target))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, method, path, body=None, source="127.0.0.2", headers=None, timeout=60, host="127.0.0.1"):
    """One request from the loopback address `source`: (status, seconds, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    payload = json.dumps(body) if isinstance(body, (dict, list)) else body
    all_headers = {"Host": f"{host}:{port}"}
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


def default_open_files():
    """The sidecar starts with the soft limit of open files most systems give (1024), as under
    systemd without LimitNOFILE=: it has to raise the limit itself."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))


def start(data, extra=None, root=ROOT):
    port, panel = free_port(), free_port()
    PANEL[port] = panel
    env = dict(os.environ, PORT=str(port), ADMIN_PORT=str(panel), SITE_ROOT=str(root), DIST_DIR=str(data / "dist"), DATA_DIR=str(data / "var"),
               ADMIN_EMAIL=ADMIN, ADMIN_PASSWORD=PASSWORD, RUST_LOG="error", **(extra or {}))
    proc = subprocess.Popen([SIDECAR], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=default_open_files)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            for listening in (port, panel):
                socket.create_connection(("127.0.0.1", listening), timeout=0.2).close()
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
    """A sign-in on the panel's own listener (its origin: localhost) of the server at `port`."""
    return request(PANEL[port], "POST", "/api/auth/login", {"email": ADMIN, "password": password}, source=source, host="localhost")


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


def page_times(port, seconds, out):
    """A visitor reading / from 127.0.1.1 for `seconds`, in a process of its own (the attackers'
    threads must not slow its clock): the sorted durations, put on `out`."""
    times, until = [], time.perf_counter() + seconds
    while time.perf_counter() < until:
        status, took, _ = request(port, "GET", "/", source="127.0.1.1")
        if status == 200:
            times.append(took)
    out.put(sorted(times))


def measure_stats_burst(data):
    """Issue 47: a burst of 10,000 statistics beacons from 127.0.0.2–9 (eight clients, forty at a
    time) is refused past the per-client limits cheaply, while a visitor's pages keep their p99."""
    import multiprocessing

    proc, port = start(data / "s")
    agent = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
    headers = {"Content-Type": "text/plain;charset=UTF-8", "User-Agent": agent, "Sec-Fetch-Site": "same-origin"}
    body = json.dumps({"e": "view", "p": "/cennik", "r": "", "w": 390})
    p99 = lambda t: t[min(len(t) - 1, int(0.99 * len(t)))] * 1000
    try:
        def visitor(seconds):
            out = multiprocessing.Queue()
            reader = multiprocessing.Process(target=page_times, args=(port, seconds, out))
            reader.start()
            return reader, out

        reader, out = visitor(4)
        quiet = out.get()
        reader.join()
        reader, out = visitor(4)
        started = time.perf_counter()
        with futures.ThreadPoolExecutor(max_workers=40) as pool:
            answers = list(pool.map(lambda i: request(port, "POST", "/api/event", body, source=f"127.0.0.{2 + i % 8}", headers=headers), range(10_000)))
        elapsed = time.perf_counter() - started
        busy = out.get()
        reader.join()
        counted = sum(1 for status, _, _ in answers if status == 204)
        refused = sum(1 for status, _, _ in answers if status == 429)
        # What one refusal costs, one at a time (the burst's own timings are the attackers' queue).
        single = sorted(request(port, "POST", "/api/event", body, source="127.0.0.2", headers=headers)[1] for _ in range(200))
        row(f"10,000 beacons from 127.0.0.2–9, 40 at a time, in {elapsed:.1f} s: counted (204) / refused (429)",
            f"{counted:,} / {refused:,}", "≤ 8 × (20 + 5 a second) counted, the rest 429")
        row("a refused beacon (429), per request on loopback", f"median {statistics.median(single) * 1e6:.0f} µs, p99 {p99(single) * 1000:.0f} µs", "microseconds")
        row("GET / from another address (its own process) during the beacon burst",
            f"p99 {p99(busy):.1f} ms over {len(busy)} requests (quiet: p99 {p99(quiet):.1f} ms over {len(quiet)})", "p99 kept")
    finally:
        proc.terminate()
        proc.wait()


def forwarded_bypass(api_port):
    """12 wrong sign-ins through a trusted edge (127.0.0.1) for one visitor (203.0.113.5), each
    with a `Forwarded` header of the visitor's own making: how many were checked."""
    checked = 0
    for i in range(12):
        headers = {"Forwarded": f"for=198.51.100.{i};proto=https", "X-Forwarded-For": f"192.0.2.{i}, 203.0.113.5"}
        status, _, _ = request(api_port, "POST", "/api/auth/login", {"email": ADMIN, "password": "zgadywane hasło"},
                               source="127.0.0.1", headers=headers)
        checked += status != 429
    row("12 wrong sign-ins through the edge, each with a forged `Forwarded`: checked (not 429)", f"{checked}", "≤ 5")


def throttled_sign_in_with_a_body(site_port, source="127.0.0.4"):
    """A throttled client announces a large sign-in body and sends none of it: the answer, and
    how long it took (a server that reads the body first waits for it)."""
    api_port = PANEL[site_port]
    for _ in range(5):
        login(site_port, source)
    sock = socket.create_connection(("127.0.0.1", api_port), timeout=5, source_address=(source, 0))
    head = (f"POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:{api_port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 8000\r\n\r\n")
    started = time.perf_counter()
    sock.sendall(head.encode())
    try:
        answer = sock.recv(4096).decode(errors="replace")
        status = answer[9:12] if answer else "closed"
    except OSError:
        status = "no answer"
    elapsed = time.perf_counter() - started
    sock.close()
    row("a throttled client's sign-in announcing 8,000 bytes and sending none: answer, time",
        f"{status} in {elapsed * 1000:.1f} ms", "429 at once (the body is never waited for)")


def readable(sock):
    """Whether the server answered or closed `sock` (poll: select() stops at descriptor 1024)."""
    poller = select.poll()
    poller.register(sock, select.POLLIN | select.POLLERR | select.POLLHUP)
    return bool(poller.poll(0))


def slow_bodies(site_port, count=1100, seconds=15, attacker="127.0.0.2", visitor="127.0.0.9"):
    """`count` contact posts from one address, each announcing 100 kB and sending a byte a
    second; meanwhile another address asks for `/`. How many the server held, when it let them
    go, and what the visitor waited."""
    head = (f"POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1:{site_port}\r\nContent-Type: application/json\r\n"
            "Content-Length: 100000\r\n\r\n{").encode()
    stop = threading.Event()
    latencies, failed = [], []

    def visit():
        while not stop.is_set():
            status, elapsed, _ = request(site_port, "GET", "/", source=visitor, timeout=10)
            (latencies if status == 200 else failed).append(elapsed)

    visitors = [threading.Thread(target=visit) for _ in range(2)]
    for v in visitors:
        v.start()
    try:
        socks, not_connected, held, released_at, answered_408 = attack(site_port, head, count, seconds, attacker)
    finally:
        stop.set()
        for v in visitors:
            v.join()
    kept = len(released_at) + len(held)
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")
    release = f"answered 408 within {max(released_at):.0f} s of opening" if released_at else "never answered"
    row(f"{count:,} slow bodies from one address: connections the server kept open",
        f"{kept} ({answered_408} {release}; {len(held)} still open after {seconds} s; {len(socks) - kept} refused at once; {not_connected} not connected)",
        "≤ CONNECTIONS_PER_CLIENT (64), 408 after BODY_TIMEOUT_SECONDS (10)")
    row("GET / from another address during the slow-body attack",
        f"p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms over {len(latencies)} requests, {len(failed)} failed", "unaffected")


def attack(site_port, head, count, seconds, attacker):
    """Opens the slow bodies, then sends a byte a second on those the server keeps. Returns the
    sockets, how many did not connect, those still open, the seconds each released one was
    open, and how many of those were answered 408."""
    socks, opened, not_connected = [], {}, 0
    for _ in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", site_port), timeout=2, source_address=(attacker, 0))
            s.sendall(head)
            s.setblocking(False)
            socks.append(s)
            opened[s] = time.perf_counter()
        except OSError:
            not_connected += 1
    time.sleep(1)
    held = [s for s in socks if not readable(s)]
    answered_408, released_at = 0, []
    started = time.perf_counter()
    while held and time.perf_counter() - started < seconds:
        for s in list(held):
            gone = readable(s)
            if gone:
                try:
                    answered_408 += s.recv(64)[9:12] == b"408"
                except OSError:
                    pass
            else:
                try:
                    s.send(b" ")
                except OSError:
                    gone = True
            if gone:
                held.remove(s)
                released_at.append(time.perf_counter() - opened[s])
        time.sleep(1)
    for s in socks:
        s.close()
    return socks, not_connected, held, released_at, answered_408


def measure_edge_and_connections(data):
    # The contact form's rate limit would refuse most slow bodies before reading them: lifted,
    # so that only the connection cap and the body deadline stand in the way.
    proc, port = start(data / "d", {"TRUSTED_PROXIES": "127.0.0.1", "CONTACT_RATE_PER_MINUTE": "1000000"})
    try:
        forwarded_bypass(api_port=PANEL[port])
        throttled_sign_in_with_a_body(site_port=port)
        slow_bodies(site_port=port)
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
    """A section of nested quotes, saved and previewed from the panel on `admin_port`
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
    proc, port = start(data / "e")
    try:
        nested_section_rows(PANEL[port])
    finally:
        proc.terminate()
        proc.wait()


def png_declaring(width, height):
    """A PNG of a few hundred bytes whose header declares `width` × `height` pixels."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">II", width, height) + bytes([8, 2, 0, 0, 0])
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(600))) + chunk(b"IEND", b"")


def png_cut_short(width, height, rows):
    """A PNG of `width` × `height` pixels (within the limits) whose pixel data ends after
    `rows` rows: a decoder works through those before it finds the image broken."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">II", width, height) + bytes([8, 2, 0, 0, 0])
    pixels = zlib.compressobj(9)
    data = pixels.compress(bytes((3 * width + 1) * rows)) + pixels.flush(zlib.Z_SYNC_FLUSH)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def jpeg_declaring(jpeg, width, height):
    """A real JPEG whose frame header is changed to declare `width` × `height` pixels."""
    out, i = bytearray(jpeg), 2
    while i + 9 < len(out):
        marker, length = out[i + 1], struct.unpack(">H", out[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            out[i + 5:i + 9] = struct.pack(">HH", height, width)
            return bytes(out)
        i += 2 + length
    return bytes(out)


def site_copy(data):
    """The sources a server needs, copied: what the attacks upload never lands in the repository."""
    root = data / "site"
    for sub in ("content", "templates", "islands/build"):
        shutil.copytree(ROOT / sub, root / sub, ignore=shutil.ignore_patterns("ssr-cache"))
    return root


def measure_bad_uploads(data):
    """Images whose header is not their size, uploaded in 'Obrazy'."""
    root = site_copy(data / "u")
    proc, port = start(data / "u", root=root)
    admin_port, source = PANEL[port], "127.0.0.6"
    try:
        cookie = admin_cookie(admin_port, source)
        photo = (ROOT / "content/images/notes-herbata.jpg").read_bytes()
        before = sorted(p.name for p in (root / "content/images").iterdir())
        for what, body in [
            ("PNG declaring 100,000 × 100,000 px", png_declaring(100_000, 100_000)),
            ("JPEG declaring 65,500 × 65,500 px", jpeg_declaring(photo, 65_500, 65_500)),
            ("PNG declaring 7,000 × 7,000 px (within the limit) over 600 bytes of pixels", png_declaring(7_000, 7_000)),
            ("PNG signature and no image", b"\x89PNG\r\n\x1a\n" + b"nie obraz" * 40),
        ]:
            rss = resident_mib(proc.pid)
            status, seconds, _ = request(admin_port, "POST", "/api/images?name=zdjecie.png&alt=opis", body, source=source,
                                         headers={"Cookie": cookie, "Content-Type": "application/octet-stream"}, host="localhost")
            row(f"upload of a {what} ({len(body):,} bytes)",
                f"{status} in {seconds * 1000:.1f} ms; resident {rss:.0f} → {resident_mib(proc.pid):.0f} MiB, peak {peak_memory_mib(proc.pid):.0f} MiB",
                "422, nothing kept, no allocation of the declared size")
        upload_burst(proc.pid, admin_port, cookie, source)
        after = sorted(p.name for p in (root / "content/images").iterdir())
        row("files added to content/images/ by the uploads above", f"{len(set(after) - set(before))}", "0")
        status, _, _ = request(port, "GET", "/", source="127.0.0.9")
        row("GET / after the uploads", f"{status}", "200")
        second_factor_guesses(admin_port, cookie, source)
    finally:
        proc.terminate()
        proc.wait()


def image_workers(pid):
    """How many image workers (`imaging`) the process `pid` has checking an upload now (one
    that ended and is not yet waited for does not count, nor those encoding variants)."""
    count = 0
    for entry in pathlib.Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or (entry / "comm").read_text().strip() != "imaging":
                continue
            state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
            if parent == str(pid) and state != "Z" and b"inspect" in (entry / "cmdline").read_bytes():
                count += 1
        except (OSError, IndexError):
            pass
    return count


def upload_burst(pid, admin_port, cookie, source, n=60):
    """`n` uploads at once of a picture the worker must decode to refuse (more than the 16
    blocking threads of the panel's worker), and a panel request in the middle of them: the
    uploads queue for the one decode at a time without taking the panel's threads."""
    body = png_cut_short(7_000, 7_000, 6_000)
    headers = {"Cookie": cookie, "Content-Type": "application/octet-stream"}
    most, sampling = [0], [True]

    def sample():
        while sampling[0]:
            most[0] = max(most[0], image_workers(pid))
            time.sleep(0.005)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.perf_counter()
    with futures.ThreadPoolExecutor(max_workers=n + 1) as pool:
        uploads = [pool.submit(request, admin_port, "POST", "/api/images?name=zdjecie.png&alt=opis", body, source, headers, 120, "localhost")
                   for _ in range(n)]
        time.sleep(0.2)
        panel = pool.submit(request, admin_port, "GET", "/api/messages", None, source, {"Cookie": cookie}, 120, "localhost")
        panel_status, panel_seconds, _ = panel.result()
        counted = collections.Counter(u.result()[0] for u in uploads)
        statuses = ", ".join(f"{status}×{k}" for status, k in sorted(counted.items()))
    burst = time.perf_counter() - started
    sampling[0] = False
    sampler.join()
    row(f"{n} uploads at once of a 7,000 × 7,000 PNG whose pixels end after 6,000 rows ({len(body):,} bytes; one session)",
        f"{statuses} in {burst:.1f} s; at most {most[0]} image worker(s) checking them at once",
        "all 422, one worker at a time")
    row("a panel request that reads the database (GET /api/messages) sent in the middle of that burst",
        f"{panel_status} in {panel_seconds * 1000:.0f} ms", "200 without waiting for the burst")


def totp(secret_base32, at):
    key = base64.b32decode(secret_base32 + "=" * (-len(secret_base32) % 8))
    mac = hmac.new(key, struct.pack(">Q", int(at // 30)), hashlib.sha1).digest()
    offset = mac[19] & 15
    return f"{(struct.unpack('>I', mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


def second_factor_guesses(admin_port, cookie, source):
    """With the app on, a stolen password leads to a code prompt: 60 guesses at once from one
    address are throttled like passwords."""
    headers = {"Cookie": cookie}
    request(admin_port, "POST", "/api/auth/reauth", {"password": PASSWORD}, source=source, headers=headers, host="localhost")
    _, _, body = request(admin_port, "POST", "/api/auth/totp/setup", {}, source=source, headers=headers, host="localhost")
    secret = json.loads(body)["secret"]
    request(admin_port, "POST", "/api/auth/totp/confirm", {"code": totp(secret, time.time())}, source=source, headers=headers, host="localhost")
    attacker = "127.0.0.7"
    conn = http.client.HTTPConnection("127.0.0.1", admin_port, timeout=60, source_address=(attacker, 0))
    conn.request("POST", "/api/auth/login", body=json.dumps({"email": ADMIN, "password": PASSWORD}),
                 headers={"Host": f"localhost:{admin_port}", "Content-Type": "application/json"})
    answer = conn.getresponse()
    answer.read()
    waiting = (answer.getheader("Set-Cookie") or "").split(";")[0]
    conn.close()
    guess = lambda n: request(admin_port, "POST", "/api/auth/login/code", {"code": f"{n:06d}"}, source=attacker,
                              headers={"Cookie": waiting}, host="localhost")[0]
    with futures.ThreadPoolExecutor(max_workers=60) as pool:
        statuses = list(pool.map(guess, range(60)))
    checked = sum(1 for s in statuses if s != 429)
    row("60 wrong app codes at once for a sign-in whose password was right: codes checked (not 429)",
        f"{checked} (answers {sorted(set(statuses))})", "≤ 5")


def git(cwd, *args):
    subprocess.run(["git", "-C", str(cwd), "-c", "core.hooksPath=/dev/null", "-c", "user.name=Ewa", "-c", "user.email=ewa@example.pl",
                    "-c", "init.defaultBranch=main", *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_until(what, done, seconds=60):
    deadline = time.time() + seconds
    while not done():
        if time.time() > deadline:
            sys.exit(f"timed out: {what}")
        time.sleep(0.05)


def health(port):
    return json.loads(request(port, "GET", "/api/health", source="127.0.0.9")[2] or b"{}")


def measure_untrusted_content(data):
    """What a push to the content branch may cost the server, and the second factor
    and sessions against many addresses."""
    place = data / "g"
    root = site_copy(place)
    remote = place / "remote.git"
    git(place, "init", "-q", "--bare", str(remote))
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "Strona")
    git(root, "push", "-q", str(remote), "HEAD:refs/heads/main")
    editor = place / "editor"
    git(place, "clone", "-q", str(remote), str(editor))
    secret = "sekret powiadomień"
    proc, port = start(place, {"GIT_REMOTE": str(remote), "GIT_BRANCH": "main", "GIT_POLL_SECONDS": "0",
                               "GIT_WEBHOOK_SECRET": secret}, root=root)
    pushes = [0]

    def push(message, make):
        make(editor)
        git(editor, "add", "-A", "-f")
        git(editor, "commit", "-q", "-m", message)
        git(editor, "push", "-q", "origin", "HEAD:main")
        pushes[0] += 1
        body = json.dumps({"ref": "refs/heads/main", "after": f"abuse-{pushes[0]}"}).encode()
        signature = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        request(port, "POST", "/api/git/push", body, source="127.0.0.8",
                headers={"Content-Type": "application/json", "X-Hub-Signature-256": signature})

    try:
        wait_until("the first fetch", lambda: health(port).get("git", {}).get("fetches", 0) >= 1)

        def links(clone):
            (clone / "content/images/leak.svg").symlink_to("../../../var/site.sqlite3")
            (clone / "content/images/passwd.gif").symlink_to("/etc/passwd")

        push("Obrazy", links)
        wait_until("the links are refused", lambda: health(port)["git"]["broken"])
        served = [request(port, "GET", path, source="127.0.0.9")[0] for path in ("/images/leak.svg", "/images/passwd.gif")]
        answer = json.dumps(health(port))
        row("pushed links to the database and to /etc/passwd: GET of each", f"{served}", "[404, 404]")
        row("/api/health after that push names a file, a path or an author",
            f"{any(w in answer for w in ('leak', 'passwd', 'content/', 'ewa@'))}", "False")
        push("Bez dowiązań", lambda clone: git(clone, "rm", "-q", "content/images/leak.svg", "content/images/passwd.gif"))
        wait_until("the report clears", lambda: not health(port)["git"]["broken"])
        before = resident_mib(proc.pid)
        peak_before = peak_memory_mib(proc.pid)

        def bomb(clone):
            with open(clone / "content/images/bomba.svg", "wb") as f:
                f.truncate(300 * 1024 * 1024)

        started = time.perf_counter()
        push("Wielki obraz", bomb)
        wait_until("the 300 MB blob is refused", lambda: health(port)["git"]["broken"], seconds=120)
        took = time.perf_counter() - started
        on_disk = (root / "content/images/bomba.svg").exists() or (place / "var/git-check/content/images/bomba.svg").exists()
        row("a pushed 300 MB SVG of one repeated byte (~300 KB packed): refused, resident memory, on disk",
            f"refused {took:.1f} s after the push; resident {before:.0f} → {resident_mib(proc.pid):.0f} MiB, "
            f"peak {peak_before:.0f} → {peak_memory_mib(proc.pid):.0f} MiB; written: {on_disk}",
            "refused from its header, no growth, nothing written")
    finally:
        proc.terminate()
        proc.wait()
    codes_from_many_addresses(data)
    idle_while_polling(data)


def codes_from_many_addresses(data):
    """16 wrong codes at once from 3 addresses for one waiting sign-in (its password known)."""
    proc, port = start(data / "c")
    admin_port = PANEL[port]
    try:
        secret = enable_app(admin_port, admin_cookie(admin_port, "127.0.0.6"))
        conn = http.client.HTTPConnection("127.0.0.1", admin_port, timeout=60, source_address=("127.0.0.7", 0))
        conn.request("POST", "/api/auth/login", body=json.dumps({"email": ADMIN, "password": PASSWORD}),
                     headers={"Host": f"localhost:{admin_port}", "Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        waiting = (answer.getheader("Set-Cookie") or "").split(";")[0]
        conn.close()
        guess = lambda n: request(admin_port, "POST", "/api/auth/login/code", {"code": f"{n:06d}"}, source=f"127.0.0.{10 + n % 3}",
                                  headers={"Cookie": waiting}, host="localhost")
        with futures.ThreadPoolExecutor(max_workers=16) as pool:
            answers = list(pool.map(guess, range(16)))
        checked = sum(1 for a in answers if b"Nieprawid" in a[2])
        slowest = max(a[1] for a in answers)
        right = request(admin_port, "POST", "/api/auth/login/code", {"code": totp(secret, time.time() + 30)}, source="127.0.0.13",
                        headers={"Cookie": waiting}, host="localhost")[0]
        row("16 wrong app codes at once from 3 addresses for one waiting sign-in: codes checked, slowest answer",
            f"{checked}, {slowest * 1000:.1f} ms (answers {sorted(set(a[0] for a in answers))})", "≤ 5, microseconds to milliseconds")
        row("the right code after that, for the same waiting sign-in", f"{right}", "401: the password is asked again")
    finally:
        proc.terminate()
        proc.wait()


def idle_while_polling(data):
    """A panel tab left open: its refreshes say they are background, and the session ends."""
    proc, port = start(data / "i", {"SESSION_IDLE_SECONDS": "2"})
    admin_port = PANEL[port]
    try:
        cookie = admin_cookie(admin_port, "127.0.0.6")
        headers = {"Cookie": cookie, "X-Panel-Background": "1"}
        polls = []
        for _ in range(8):
            time.sleep(0.5)
            polls.append(request(admin_port, "GET", "/api/git", source="127.0.0.6", headers=headers, host="localhost")[0])
        after = request(admin_port, "GET", "/api/prices", source="127.0.0.6", headers={"Cookie": cookie}, host="localhost")[0]
        row("a session idle 2 s while its tab polls every 0.5 s for 4 s: the polls, then an action",
            f"{sorted(set(polls))}, then {after}", "the session ends: 401")
    finally:
        proc.terminate()
        proc.wait()


def codes_from_eight_addresses(admin_port, secret):
    """8 sign-ins with the password from 127.0.0.2-9, then 5 codes from each at the same moment:
    the account's limit is reserved with each check, so at most its free codes are checked."""
    waiting = {}
    for n in range(2, 10):
        source = f"127.0.0.{n}"
        conn = http.client.HTTPConnection("127.0.0.1", admin_port, timeout=60, source_address=(source, 0))
        conn.request("POST", "/api/auth/login", body=json.dumps({"email": ADMIN, "password": PASSWORD}),
                     headers={"Host": f"localhost:{admin_port}", "Content-Type": "application/json"})
        answer = conn.getresponse()
        answer.read()
        waiting[source] = (answer.getheader("Set-Cookie") or "").split(";")[0]
        conn.close()
    jobs = [(source, n) for source in waiting for n in range(5)]
    guess = lambda job: request(admin_port, "POST", "/api/auth/login/code", {"code": f"{job[1]:06d}"}, source=job[0],
                                headers={"Cookie": waiting[job[0]]}, host="localhost")[0]
    with futures.ThreadPoolExecutor(max_workers=40) as pool:
        statuses = list(pool.map(guess, jobs))
    checked = sum(1 for s in statuses if s == 401)
    row("40 wrong app codes at once, 5 from each of 8 addresses (127.0.0.2-9) with the password: codes checked",
        f"{checked} (answers {sorted(set(statuses))})", "≤ 10, the account's free codes")


def audit_lines(admin_port, cookie, event):
    _, _, body = request(admin_port, "GET", "/api/audit", source="127.0.0.6", headers={"Cookie": cookie}, host="localhost")
    return [e for e in json.loads(body or b"[]") if e["event"] == event]


def wrong_tokens(admin_port, cookie, path, header, event):
    """300 wrong tokens from 3 addresses at once: answers, time of each, and the audit lines
    they leave (one per client and minute)."""
    def guess(n):
        status, seconds, _ = request(admin_port, "GET", path, source=f"127.0.0.{20 + n % 3}", host="localhost",
                                     headers={"Authorization": header(n)})
        return status, seconds
    with futures.ThreadPoolExecutor(max_workers=30) as pool:
        answers = list(pool.map(guess, range(300)))
    wait_until("the refusals are in the audit log", lambda: len(audit_lines(admin_port, cookie, event)) >= 3)
    lines = audit_lines(admin_port, cookie, event)
    times = sorted(a[1] for a in answers)
    return sorted(set(a[0] for a in answers)), times, lines


def measure_trust(data):
    """Issue 42: what an editor's token (or a merged pull request) could make the patients'
    site run, the second factor against a burst, and the small doors."""
    place = data / "t"
    root = site_copy(place)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "Strona")
    proc, port = start(place, {"GIT_HOSTED": "1", "GIT_POLL_SECONDS": "0", "METRICS_TOKEN": "token-metryk-pomiaru",
                               "IMAGE_CACHE_DIR": str(ROOT / ".cache/images")}, root=root)
    admin_port = PANEL[port]
    bare = place / "var/content.git"
    try:
        wait_until("the hosted repository", lambda: subprocess.run(["git", "-C", str(bare), "rev-parse", "-q", "--verify", "main"],
                                                                  capture_output=True).returncode == 0)
        cookie = admin_cookie(admin_port, "127.0.0.6")
        headers = {"Cookie": cookie, "Origin": f"http://localhost:{admin_port}"}
        request(admin_port, "POST", "/api/auth/reauth", {"password": PASSWORD}, source="127.0.0.6", headers=headers, host="localhost")
        _, _, body = request(admin_port, "POST", "/api/git/tokens", {"name": "Redaktorka, laptop"}, source="127.0.0.6",
                             headers=headers, host="localhost")
        token = json.loads(body)["token"]
        editor = place / "editor"
        subprocess.run(["git", "clone", "-q", f"http://redaktorka:{token}@127.0.0.1:{admin_port}/git/tresc.git", str(editor)],
                       check=True, env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
        git(editor, "config", "core.bigFileThreshold", "1m")

        def push(message, make):
            """Commits what `make` changed and pushes over HTTP: whether it was taken, what git said."""
            make(editor)
            git(editor, "add", "-A", "-f")
            git(editor, "commit", "-q", "-m", message)
            started = time.perf_counter()
            out = subprocess.run(["git", "-C", str(editor), "push", "origin", "HEAD:main"], capture_output=True, text=True,
                                 env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
            took = time.perf_counter() - started
            if out.returncode != 0:
                git(editor, "reset", "-q", "--hard", "origin/main")
            return out.returncode == 0, out.stdout + out.stderr, took

        png = (ROOT / "content/images/og-harmonia.png").read_bytes()
        for name in ['a"><script x=`;gt=0;x=0>alert(document.domain);String.raw`.png', 'q" onmouseover="alert(1)" x=".png']:
            taken, said, _ = push("Obraz", lambda clone: (clone / "content/images" / name).write_bytes(png))
            row(f"a picture pushed as `{name}`: taken, the reason given",
                f"{taken}, {'niedozwolona' in said}", "False, True: names are lowercase slugs")
        foreign = 'telephony_widget_src: "http://127.0.0.1:8099/cp.js"\n'
        taken, said, _ = push("Widżet", lambda clone: (clone / "content/site.yaml").write_text(
            foreign + (clone / "content/site.yaml").read_text()))
        row("site.yaml pushed with `telephony_widget_src` of a foreign host: taken, the reason given",
            f"{taken}, {'operator' in said}", "False, True: hosts are the code's")
        taken, said, _ = push("Dostawca", lambda clone: (clone / "content/site.yaml").write_text(
            (clone / "content/site.yaml").read_text().replace('provider: "callpage"', 'provider: "http://127.0.0.1:8099/cp.js"')))
        row("site.yaml pushed with a host as the telephony provider: taken", f"{taken}", "False")
        article = (ROOT / "content/blog/terapia-cbt.md").read_text().replace("featured: true", "featured: false")
        trick = '\n<a title="\ufffc0\ufffc">x</a> <div title="\n\n![Świt](swit.svg)\n\n">x</div>\n<img src=x onerror="alert(1)">\n'
        taken, said, _ = push("Artykuł", lambda clone: (clone / "content/blog/pulapka.md").write_text(article + trick))
        wait_until("the article is served", lambda: request(port, "GET", "/blog/pulapka", source="127.0.0.9")[0] == 200)
        _, _, page = request(port, "GET", "/blog/pulapka", source="127.0.0.9")
        row("an article with the placeholder trick and raw handlers: taken, its page holds an `on…=` attribute",
            f"{taken}, {b' onfocus=' in page or b' onerror=' in page}", "True, False")
        hashes = set(re.findall(r"'sha256-[^']+'", health_headers(port, "/blog/pulapka")))
        row("inline-script hashes in the article's Content-Security-Policy", f"{len(hashes)}", "1: the template's own")

        def big(clone):
            with open(clone / "content/images/duzy.jpg", "wb") as f:
                f.truncate(400 * 1024 * 1024)
            git(clone, "add", "-A")
            git(clone, "commit", "-q", "-m", "Duży obraz")
            (clone / "content/images/duzy.jpg").unlink()

        peak_before = peak_memory_mib(proc.pid)
        taken, said, took = push("Bez obrazu", big)
        left = subprocess.run(["git", "-C", str(bare), "count-objects", "-v"], capture_output=True, text=True).stdout
        size = sum(int(l.split()[1]) for l in left.splitlines() if l.startswith(("size:", "size-pack:")))
        row("a 400 MiB blob added in one commit and removed in the next (~400 KB sent): taken, time, content.git after",
            f"{taken}, {took:.1f} s, {size / 1024:.1f} MiB (sidecar peak {peak_before:.0f} → {peak_memory_mib(proc.pid):.0f} MiB)",
            "False; nothing of it kept")
        statuses, times, lines = wrong_tokens(admin_port, cookie, "/git/tresc.git/info/refs?service=git-upload-pack",
                                              lambda n: "Basic " + base64.b64encode(f"x:zly-{n}".encode()).decode(), "git_token_refused")
        row("300 wrong git tokens from 3 addresses at once: answers, median time, audit lines",
            f"{statuses}, {statistics.median(times) * 1000:.1f} ms, {len(lines)}", "401 then 429; one line per client a minute")
        statuses, times, lines = wrong_tokens(admin_port, cookie, "/metrics", lambda n: f"Bearer zly-{n}", "metrics_token_refused")
        row("300 wrong /metrics tokens from 3 addresses at once: answers, median time, audit lines",
            f"{statuses}, {statistics.median(times) * 1000:.1f} ms, {len(lines)}", "401 (10 each) then 429; one line per client a minute")
        pushers = subprocess.run(["git", "-C", str(bare), "log", "-g", "--format=%gn", "main"], capture_output=True, text=True).stdout
        row("the hosted repository's reflog: who moved the branch", f"{sorted(set(pushers.split(chr(10))) - {''})}",
            "the token's name")
        totp_secret = enable_app(admin_port, cookie)
        codes_from_eight_addresses(admin_port, totp_secret)
    finally:
        proc.terminate()
        proc.wait()


def health_headers(port, path):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=("127.0.0.9", 0))
    conn.request("GET", path)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer.getheader("Content-Security-Policy") or ""


def enable_app(admin_port, cookie):
    """Turns the authenticator app on for the administrator: its secret."""
    headers = {"Cookie": cookie}
    request(admin_port, "POST", "/api/auth/reauth", {"password": PASSWORD}, source="127.0.0.6", headers=headers, host="localhost")
    _, _, body = request(admin_port, "POST", "/api/auth/totp/setup", {}, source="127.0.0.6", headers=headers, host="localhost")
    secret = json.loads(body)["secret"]
    request(admin_port, "POST", "/api/auth/totp/confirm", {"code": totp(secret, time.time())}, source="127.0.0.6",
            headers=headers, host="localhost")
    return secret


def main():
    if not SIDECAR.exists():
        sys.exit("build it first: cargo build --release -p sidecar")
    # The attacker's own sockets: more than the usual 1024.
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    data = pathlib.Path(tempfile.mkdtemp(prefix="harmonia-abuse-"))
    # ABUSE_ONLY=untrusted runs only the rows of untrusted content (a push's cost, codes, idle sessions),
    # ABUSE_ONLY=trust those of issue 42 (what a push could make the site run, the small doors),
    # ABUSE_ONLY=stats only the statistics' burst, ABUSE_ONLY=uploads only the bad uploads.
    only = os.environ.get("ABUSE_ONLY", "")
    try:
        if only == "stats":
            measure_stats_burst(data)
        if only == "uploads":
            measure_bad_uploads(data)
        if only in ("", "untrusted"):
            measure_untrusted_content(data)
        if only in ("", "trust"):
            measure_trust(data)
        if not only:
            measure_sign_in_bursts(data)
            measure_contact_refusals(data)
            measure_stats_burst(data)
            measure_home_under_attack(data)
            measure_edge_and_connections(data)
            measure_nested_section(data)
            measure_bad_uploads(data)
        row("requests answered 5xx (or not at all) in all of the above", f"{len(five_xx)}", "0")
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print("| attack | result | expected |\n|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
