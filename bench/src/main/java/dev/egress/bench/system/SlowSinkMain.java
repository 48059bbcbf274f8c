package dev.egress.bench.system;

import io.netty.channel.ChannelOption;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;
import reactor.netty.resources.LoopResources;

/**
 * The slow target of {@code bench/system/slow-targets.sh}: many webhook receivers that each answer
 * {@code 200 {"ok":true}} a fixed delay after reading the whole request. One Reactor Netty server per
 * destination ({@code host:port}), all on the same two event loops: a waiting request holds only its
 * connection and a timer, so a few thousand concurrent requests cost a few MB here, and the sink is not
 * what limits the benchmark. Every 5 s it prints the requests answered and the highest
 * number it held at once since the last line: that peak is the in-flight cap of whatever is in front.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.egress.bench.system.SlowSinkMain 1000 127.0.1.1:19100-19109 127.0.1.2:19100-19109
 * </pre>
 * Arguments: the delay in milliseconds, then one or more {@code host:port} or {@code host:from-to}.
 * Loopback addresses only (the benchmark's rule); anything else is refused.
 */
public final class SlowSinkMain {

    private static final byte[] ANSWER = "{\"ok\":true}".getBytes(StandardCharsets.US_ASCII);

    private SlowSinkMain() {}

    /**
     * Starts the sink and runs until killed.
     *
     * @param args delay in ms, then destinations
     * @throws InterruptedException never in practice (waits for ever)
     */
    public static void main(String[] args) throws InterruptedException {
        if (args.length < 2) {
            System.err.println("usage: SlowSinkMain <delay-ms> <host:port|host:from-to>...");
            System.exit(2);
        }
        quietLogs();
        Duration delay = Duration.ofMillis(Long.parseLong(args[0]));
        Counters counters = new Counters();
        LoopResources loops = LoopResources.create("slow-sink", 2, true);
        List<DisposableServer> servers = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            bindDestinations(args[i], loops, delay, counters, servers);
        }
        System.out.printf("slow sink: %d destinations, answering after %d ms%n", servers.size(), delay.toMillis());
        System.out.flush();
        startReporter(counters);
        new CountDownLatch(1).await();
    }

    /** Reactor Netty logs every request at DEBUG without a configuration: that alone would slow the sink. */
    private static void quietLogs() {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME))
                .setLevel(ch.qos.logback.classic.Level.WARN);
    }

    /** Binds one server per port of {@code spec} ({@code host:port} or {@code host:from-to}), loopback only. */
    private static void bindDestinations(
            String spec, LoopResources loops, Duration delay, Counters counters, List<DisposableServer> servers) {
        int colon = spec.lastIndexOf(':');
        String host = spec.substring(0, colon);
        if (!host.startsWith("127.")) {
            throw new IllegalArgumentException(spec + ": loopback (127.0.0.0/8) only");
        }
        String ports = spec.substring(colon + 1);
        int dash = ports.indexOf('-');
        int from = Integer.parseInt(dash < 0 ? ports : ports.substring(0, dash));
        int to = dash < 0 ? from : Integer.parseInt(ports.substring(dash + 1));
        for (int port = from; port <= to; port++) {
            servers.add(HttpServer.create()
                    .runOn(loops)
                    .host(host)
                    .port(port)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .handle((request, response) -> answerAfter(delay, counters, request, response))
                    .bindNow());
        }
    }

    /** Reads the whole request, holds it for {@code delay}, then answers {@code 200 {"ok":true}}. */
    private static Mono<Void> answerAfter(
            Duration delay, Counters counters, HttpServerRequest request, HttpServerResponse response) {
        return request.receive()
                .then()
                .then(Mono.defer(() -> {
                    int now = counters.holding.incrementAndGet();
                    counters.peak.accumulateAndGet(now, Math::max);
                    // doFinally: a caller that gives up (cancel) is no longer held either.
                    return Mono.delay(delay).doFinally(signal -> counters.holding.decrementAndGet());
                }))
                .then(Mono.defer(() -> {
                    counters.answered.incrementAndGet();
                    return response.header("Content-Type", "application/json")
                            .sendByteArray(Mono.just(ANSWER))
                            .then();
                }));
    }

    /** Starts the daemon thread that prints one line of counters every 5 s. */
    private static void startReporter(Counters counters) {
        Thread reporter = new Thread(() -> reportEveryFiveSeconds(counters), "slow-sink-report");
        reporter.setDaemon(true);
        reporter.start();
    }

    private static void reportEveryFiveSeconds(Counters counters) {
        long last = 0;
        while (true) {
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                return;
            }
            long total = counters.answered.get();
            System.out.printf(
                    "%tT answered %d (+%d), holding %d, peak held %d%n",
                    System.currentTimeMillis(),
                    total,
                    total - last,
                    counters.holding.get(),
                    counters.peak.getAndSet(counters.holding.get()));
            System.out.flush();
            last = total;
        }
    }

    /** What the sink counts: requests held now, the most held at once since the last report, requests answered. */
    private static final class Counters {
        final AtomicInteger holding = new AtomicInteger();
        final AtomicInteger peak = new AtomicInteger();
        final AtomicLong answered = new AtomicLong();
    }
}
