import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The load generator of {@code bench/proxy/run.sh}: HTTPS through an HTTP forward proxy's {@code CONNECT}, or
 * straight to the target, with the same code for every path so that only the path differs between rows.
 *
 * <p>Why its own client: wrk and h2load do not speak {@code CONNECT}; curl in a loop spends most of its time
 * starting processes; the JDK {@code HttpClient} pools connections by itself (a new tunnel per request needs a
 * new client) and sends {@code Proxy-Authorization: Basic} only after a 407 unless a system property is changed.
 * Here a tunnel is a plain socket: {@code CONNECT host:port} with the credentials sent up front, the proxy's
 * head read, then the JDK's TLS ({@code SSLSocket}, endpoint identification on) end to end with the target, and
 * HTTP/1.1 requests with {@code Content-Length} bodies on it. Blocking sockets on platform threads: at the
 * concurrencies used (8 busy threads by default, 1,000 idle tunnels) that is simpler than an event loop and not the
 * bottleneck (its CPU is reported beside the proxies').
 *
 * <pre>
 * java ProxyLoad.java MODE target=127.0.0.1:29443 ca=ca.pem [proxy=127.0.0.1:3128] [auth=user:token] [key=value...]
 *   probe      one tunnel, GET /whoami: prints the source address the target saw
 *   tunnels    conc=8 warmup=5 seconds=20: new tunnel + TLS handshake + GET / + close, per connection
 *   keepalive  conns=1 warmup=5 seconds=15: one tunnel per connection, GET / back to back
 *   download   path=/100m repeat=3: one tunnel each (after one unmeasured), the body read to the end
 *   upload     bytes=104857600 repeat=3: one tunnel each (after one unmeasured), POST /upload with that body
 *   hold       n=1000 conc=32 seconds=10: n tunnels open at once (each proven by one GET), held, checked, closed
 * </pre>
 *
 * Every mode prints one line of {@code key=value} figures that the script turns into its table; the measured
 * modes print "phase=measure" and "phase=done" around their measured part, where the script reads the CPU
 * counters of the proxies (so neither the client's warm-up nor its start-up is in them).
 */
public final class ProxyLoad {

    private final Map<String, String> opts;
    private final String targetHost;
    private final int targetPort;
    private final InetSocketAddress target;
    private final InetSocketAddress proxy;
    private final String authHeader;
    private final SSLSocketFactory tls;

    private ProxyLoad(Map<String, String> opts) throws Exception {
        this.opts = opts;
        String[] hostPort = opts.get("target").split(":");
        this.targetHost = hostPort[0];
        this.targetPort = Integer.parseInt(hostPort[1]);
        this.target = new InetSocketAddress(targetHost, targetPort);
        String proxyOpt = opts.getOrDefault("proxy", "none");
        if ("none".equals(proxyOpt)) {
            this.proxy = null;
        } else {
            String[] p = proxyOpt.split(":");
            this.proxy = new InetSocketAddress(p[0], Integer.parseInt(p[1]));
        }
        String auth = opts.getOrDefault("auth", "none");
        this.authHeader = "none".equals(auth)
                ? ""
                : "Proxy-Authorization: Basic "
                        + Base64.getEncoder().encodeToString(auth.getBytes(StandardCharsets.UTF_8)) + "\r\n";
        this.tls = trusting(Path.of(opts.get("ca"))).getSocketFactory();
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            opts.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        ProxyLoad load = new ProxyLoad(opts);
        switch (args[0]) {
            case "probe" -> load.probe();
            case "tunnels" -> load.tunnels();
            case "keepalive" -> load.keepalive();
            case "download" -> load.download();
            case "upload" -> load.upload();
            case "hold" -> load.hold();
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
        System.exit(0);
    }

    private int intOpt(String key, int fallback) {
        return Integer.parseInt(opts.getOrDefault(key, String.valueOf(fallback)));
    }

    /** CPU of this whole process (every thread), so the client's share of the machine is known per row. */
    private static long processCpuNanos() {
        return ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                .getProcessCpuTime();
    }

    private static SSLContext trusting(Path caPem) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caPem)) {
            int i = 0;
            for (var cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trust.setCertificateEntry("ca-" + i++, (X509Certificate) cert);
            }
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        return context;
    }

    // ---- one connection --------------------------------------------------------------------------------------

    /** An open tunnel (or direct connection) with TLS up; {@code connectNanos} is until the tunnel stood. */
    private record Conn(SSLSocket socket, InputStream in, OutputStream out, long connectNanos, long tlsNanos)
            implements AutoCloseable {
        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing is all that is left to do with it
            }
        }
    }

    private Conn open() throws IOException {
        long start = System.nanoTime();
        Socket raw = new Socket();
        try {
            raw.setTcpNoDelay(true);
            raw.setSoTimeout(60_000);
            if (proxy == null) {
                raw.connect(target, 10_000);
            } else {
                raw.connect(proxy, 10_000);
                connect(raw);
            }
            long tunnel = System.nanoTime();
            SSLSocket socket = (SSLSocket) tls.createSocket(raw, targetHost, targetPort, true);
            SSLParameters params = socket.getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(params);
            socket.startHandshake();
            long up = System.nanoTime();
            return new Conn(
                    socket,
                    new BufferedInputStream(socket.getInputStream(), 64 * 1024),
                    new BufferedOutputStream(socket.getOutputStream(), 64 * 1024),
                    tunnel - start,
                    up - tunnel);
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    /** Sends CONNECT with the credentials up front and reads the proxy's head; anything but 200 fails. */
    private void connect(Socket raw) throws IOException {
        String authority = targetHost + ":" + targetPort;
        OutputStream out = raw.getOutputStream();
        out.write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n" + authHeader + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        // Read only up to the blank line: the TLS bytes that follow belong to the SSLSocket. The target speaks
        // only after our ClientHello, so nothing can follow the head yet; one byte at a time would also do.
        InputStream in = raw.getInputStream();
        byte[] head = new byte[8192];
        int len = 0;
        int end = -1;
        while (end < 0) {
            if (len == head.length) {
                throw new IOException("proxy answer head too long");
            }
            int n = in.read(head, len, head.length - len);
            if (n < 0) {
                throw new IOException("proxy closed during CONNECT: "
                        + new String(head, 0, len, StandardCharsets.ISO_8859_1).lines().findFirst().orElse(""));
            }
            len += n;
            end = headEnd(head, len);
        }
        String status = new String(head, 0, end, StandardCharsets.ISO_8859_1);
        if (!status.startsWith("HTTP/1.1 200") && !status.startsWith("HTTP/1.0 200")) {
            // A refusal comes with a problem body and a close: name both.
            throw new IOException("CONNECT refused: " + status.lines().findFirst().orElse(status) + " "
                    + new String(head, end, len - end, StandardCharsets.UTF_8).replace('\n', ' '));
        }
        if (len != end) {
            throw new IOException("bytes after the proxy's 200 before the ClientHello: " + (len - end));
        }
    }

    /** The index just after the first blank line (CRLF CRLF), or -1. */
    private static int headEnd(byte[] b, int len) {
        for (int i = 3; i < len; i++) {
            if (b[i - 3] == '\r' && b[i - 2] == '\n' && b[i - 1] == '\r' && b[i] == '\n') {
                return i + 1;
            }
        }
        return -1;
    }

    /** Sends one request and reads the whole response; returns the body length. */
    private static long exchange(Conn c, String method, String path, long bodyBytes, byte[] sink)
            throws IOException {
        String head = method + " " + path + " HTTP/1.1\r\nHost: bench-target\r\n"
                + (bodyBytes >= 0 ? "Content-Length: " + bodyBytes + "\r\nContent-Type: application/octet-stream\r\n" : "")
                + "\r\n";
        c.out.write(head.getBytes(StandardCharsets.US_ASCII));
        if (bodyBytes > 0) {
            byte[] chunk = new byte[64 * 1024];
            Arrays.fill(chunk, (byte) 'x');
            for (long left = bodyBytes; left > 0; left -= chunk.length) {
                c.out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
        }
        c.out.flush();
        String status = readLine(c.in);
        if (!status.startsWith("HTTP/1.1 200")) {
            throw new IOException("target answered: " + status);
        }
        long length = -1;
        for (String line = readLine(c.in); !line.isEmpty(); line = readLine(c.in)) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(line.substring(15).trim());
            }
        }
        if (length < 0) {
            throw new IOException("response without Content-Length");
        }
        for (long left = length; left > 0; ) {
            int n = c.in.read(sink, 0, (int) Math.min(sink.length, left));
            if (n < 0) {
                throw new IOException("connection closed with " + left + " body bytes missing");
            }
            left -= n;
        }
        return length;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("connection closed in a response head");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    // ---- modes -----------------------------------------------------------------------------------------------

    private void probe() throws IOException {
        try (Conn c = open()) {
            byte[] body = new byte[256];
            String head = "GET /whoami HTTP/1.1\r\nHost: bench-target\r\n\r\n";
            c.out.write(head.getBytes(StandardCharsets.US_ASCII));
            c.out.flush();
            String status = readLine(c.in);
            int length = 0;
            for (String line = readLine(c.in); !line.isEmpty(); line = readLine(c.in)) {
                if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            int read = c.in.readNBytes(body, 0, length);
            System.out.printf("status=%s source=%s protocol=%s cipher=%s%n",
                    status.split(" ")[1], new String(body, 0, read, StandardCharsets.US_ASCII),
                    c.socket.getSession().getProtocol(), c.socket.getSession().getCipherSuite());
        }
    }

    /**
     * (a): new tunnel + handshake + one GET + close, by {@code conc} threads: {@code warmup} seconds unmeasured
     * (the client's own JIT), then {@code seconds} measured between the lines "phase=measure" and "phase=done".
     */
    private void tunnels() throws Exception {
        int conc = intOpt("conc", 8);
        ExecutorService pool = Executors.newFixedThreadPool(conc);
        runTunnels(pool, conc, intOpt("warmup", 5), 0);
        phase("measure");
        long cpu0 = processCpuNanos();
        long started = System.nanoTime();
        Result r = runTunnels(pool, conc, intOpt("seconds", 20), intOpt("count", 0));
        double seconds = (System.nanoTime() - started) / 1e9;
        long cpuMs = (processCpuNanos() - cpu0) / 1_000_000;
        phase("done");
        pool.shutdown();
        System.out.printf(Locale.ROOT,
                "tunnels=%d rate=%.0f connect_p50_ms=%.2f connect_p99_ms=%.2f total_p50_ms=%.2f total_p99_ms=%.2f"
                        + " tls_p50_ms=%.2f close_p50_ms=%.2f errors=%d cpu_ms=%d%s%n",
                r.total.count(), r.total.count() / seconds, r.connect.pctMs(50), r.connect.pctMs(99),
                r.total.pctMs(50), r.total.pctMs(99), r.handshake.pctMs(50), r.closing.pctMs(50), r.errors, cpuMs,
                r.firstErrors.isEmpty() ? "" : " first_errors=" + r.firstErrors);
    }

    /** What {@link #runTunnels} saw. */
    private record Result(
            Samples connect, Samples total, Samples handshake, Samples closing, long errors, List<String> firstErrors) {}

    /** Opens tunnels from {@code conc} threads for {@code seconds}, or until {@code count} were tried (0: no count). */
    private Result runTunnels(ExecutorService pool, int conc, int seconds, int count) throws Exception {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        AtomicLong left = new AtomicLong(count > 0 ? count : Long.MAX_VALUE);
        AtomicLong errors = new AtomicLong();
        List<String> firstErrors = new ArrayList<>();
        List<Future<long[][]>> futures = new ArrayList<>();
        for (int t = 0; t < conc; t++) {
            futures.add(pool.submit(() -> {
                Samples connect = new Samples();
                Samples total = new Samples();
                Samples handshake = new Samples();
                Samples closing = new Samples();
                byte[] sink = new byte[16 * 1024];
                while (System.nanoTime() < end && left.getAndDecrement() > 0) {
                    long t0 = System.nanoTime();
                    try (Conn c = open()) {
                        exchange(c, "GET", "/", -1, sink);
                        connect.add(c.connectNanos);
                        handshake.add(c.tlsNanos);
                        long t1 = System.nanoTime();
                        c.close();
                        closing.add(System.nanoTime() - t1);
                    } catch (IOException e) {
                        errors.incrementAndGet();
                        synchronized (firstErrors) {
                            if (firstErrors.size() < 3) {
                                firstErrors.add(e.toString());
                            }
                        }
                        continue;
                    }
                    total.add(System.nanoTime() - t0);
                }
                return new long[][] {connect.values(), total.values(), handshake.values(), closing.values()};
            }));
        }
        Samples connect = new Samples();
        Samples total = new Samples();
        Samples handshake = new Samples();
        Samples closing = new Samples();
        for (Future<long[][]> f : futures) {
            long[][] v = f.get();
            connect.addAll(v[0]);
            total.addAll(v[1]);
            handshake.addAll(v[2]);
            closing.addAll(v[3]);
        }
        return new Result(connect, total, handshake, closing, errors.get(), firstErrors);
    }

    /** Marks where the measured part starts and ends: the script reads the proxies' CPU at these lines. */
    private static void phase(String name) {
        System.out.println("phase=" + name);
        System.out.flush();
    }

    /** (b): {@code conns} tunnels, each with GET / back to back: {@code warmup} s, then {@code seconds} measured. */
    private void keepalive() throws Exception {
        int conns = intOpt("conns", 1);
        long warm = System.nanoTime() + intOpt("warmup", 5) * 1_000_000_000L;
        long measuredNanos = intOpt("seconds", 15) * 1_000_000_000L;
        ExecutorService pool = Executors.newFixedThreadPool(conns);
        List<Future<long[]>> futures = new ArrayList<>();
        List<Conn> open = new ArrayList<>();
        for (int t = 0; t < conns; t++) {
            open.add(open());
        }
        byte[] sink = new byte[16 * 1024];
        while (System.nanoTime() < warm) {
            exchange(open.get(0), "GET", "/", -1, sink);
        }
        phase("measure");
        long started = System.nanoTime();
        long end = started + measuredNanos;
        for (Conn conn : open) {
            futures.add(pool.submit(() -> {
                Samples latency = new Samples();
                byte[] buffer = new byte[16 * 1024];
                try (Conn c = conn) {
                    while (System.nanoTime() < end) {
                        long t0 = System.nanoTime();
                        exchange(c, "GET", "/", -1, buffer);
                        latency.add(System.nanoTime() - t0);
                    }
                }
                return latency.values();
            }));
        }
        Samples latency = new Samples();
        for (Future<long[]> f : futures) {
            latency.addAll(f.get());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        phase("done");
        pool.shutdown();
        System.out.printf(Locale.ROOT, "requests=%d rate=%.0f p50_ms=%.3f p99_ms=%.3f%n",
                latency.count(), latency.count() / seconds, latency.pctMs(50), latency.pctMs(99));
    }

    /** (c) down: the body of {@code path} read to the end through a new tunnel, {@code repeat} times. */
    private void download() throws IOException {
        transfer("GET", opts.getOrDefault("path", "/100m"), -1);
    }

    /** (c) up: a body of {@code bytes} sent to /upload (the target reads all of it before it answers). */
    private void upload() throws IOException {
        transfer("POST", "/upload", Long.parseLong(opts.getOrDefault("bytes", "104857600")));
    }

    /** One unmeasured transfer (the client's JIT), then {@code repeat} measured ones between the phase lines. */
    private void transfer(String method, String path, long upBytes) throws IOException {
        int repeat = intOpt("repeat", 3);
        byte[] sink = new byte[256 * 1024];
        double[] rates = new double[repeat];
        for (int i = -1; i < repeat; i++) {
            if (i == 0) {
                phase("measure");
            }
            try (Conn c = open()) {
                long t0 = System.nanoTime();
                long down = exchange(c, method, path, upBytes, sink);
                double seconds = (System.nanoTime() - t0) / 1e9;
                if (i >= 0) {
                    rates[i] = Math.max(down, upBytes) / 1e6 / seconds;
                }
            }
        }
        phase("done");
        double[] sorted = rates.clone();
        Arrays.sort(sorted);
        StringBuilder each = new StringBuilder();
        for (double r : rates) {
            each.append(each.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.0f", r));
        }
        System.out.printf(Locale.ROOT, "median_mb_s=%.0f runs_mb_s=%s%n", sorted[repeat / 2], each);
    }

    /**
     * (d): {@code n} tunnels opened by {@code conc} threads, each proven by one GET, then held idle for
     * {@code seconds} (the script reads the processes' RSS meanwhile, after the line "held=..."), then each used
     * once more (how many survived) and closed.
     */
    private void hold() throws Exception {
        int n = intOpt("n", 1000);
        int conc = intOpt("conc", 32);
        ExecutorService pool = Executors.newFixedThreadPool(conc);
        List<Future<Conn>> opening = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            opening.add(pool.submit(() -> {
                Conn c = open();
                exchange(c, "GET", "/", -1, new byte[1024]);
                return c;
            }));
        }
        List<Conn> open = new ArrayList<>();
        int failed = 0;
        String firstError = "";
        for (Future<Conn> f : opening) {
            try {
                open.add(f.get());
            } catch (Exception e) {
                failed++;
                if (firstError.isEmpty()) {
                    firstError = " first_error=" + e.getCause();
                }
            }
        }
        System.out.printf(Locale.ROOT, "held=%d failed=%d open_s=%.1f%s%n", open.size(), failed,
                (System.nanoTime() - t0) / 1e9, firstError);
        System.out.flush();
        Thread.sleep(intOpt("seconds", 10) * 1000L); // the hold itself: the script measures during it
        List<Future<Boolean>> checks = new ArrayList<>();
        for (Conn c : open) {
            checks.add(pool.submit(() -> {
                try (c) {
                    exchange(c, "GET", "/", -1, new byte[1024]);
                    return true;
                } catch (IOException e) {
                    return false;
                }
            }));
        }
        int alive = 0;
        for (Future<Boolean> f : checks) {
            alive += f.get() ? 1 : 0;
        }
        pool.shutdown();
        System.out.printf(Locale.ROOT, "alive_after_hold=%d of=%d%n", alive, open.size());
    }

    /** Latencies in nanoseconds, percentiles by sorting (a few hundred thousand values at most). */
    private static final class Samples {
        private long[] values = new long[1024];
        private int count;

        void add(long v) {
            if (count == values.length) {
                values = Arrays.copyOf(values, count * 2);
            }
            values[count++] = v;
        }

        void addAll(long[] vs) {
            for (long v : vs) {
                add(v);
            }
        }

        long[] values() {
            return Arrays.copyOf(values, count);
        }

        int count() {
            return count;
        }

        double pctMs(double pct) {
            if (count == 0) {
                return Double.NaN;
            }
            long[] sorted = values();
            Arrays.sort(sorted);
            int index = (int) Math.ceil(pct / 100.0 * count) - 1;
            return sorted[Math.max(0, Math.min(count - 1, index))] / 1e6;
        }
    }
}
