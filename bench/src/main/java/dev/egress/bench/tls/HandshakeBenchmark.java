package dev.egress.bench.tls;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.IdentityKeyManager;
import dev.egress.discovery.trust.PeerTrustManager;
import dev.egress.discovery.trust.ReloadingFile;
import dev.egress.discovery.trust.TrustBundle;
import dev.egress.discovery.trust.testing.TestPki;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One App → Border mutual-TLS handshake in memory (two engines, no sockets), with the production trust and key
 * managers ({@link PeerTrustManager}, {@link IdentityKeyManager}, EC P-256 certificates of a test CA): the CPU of
 * both ends together, per provider, for a full handshake (a peer the client has no session for) and for a
 * resumed one (the client offers the TLS 1.3 ticket of an earlier handshake with the same peer; whether the
 * server took it is not counted here: Netty's {@code SslHandler}, not the engine, calls the resumed-session check,
 * which the tests count). Run:
 *
 * <pre>java -jar bench/target/benchmarks.jar HandshakeBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HandshakeBenchmark {

    private static final String PEER = "border-a.bench";
    private static final int RESUMED_PORT = 1;

    /** The provider both ends use. */
    @Param({"OPENSSL", "JDK"})
    public String provider;

    /** {@code full}: a new peer every time; {@code resumed}: the same peer, so the client offers its ticket. */
    @Param({"full", "resumed"})
    public String session;

    private SslContext client;
    private SslContext server;
    private int nextPort = 1000;

    /**
     * Issues the certificates and builds both contexts as App and the Border build theirs.
     *
     * @throws Exception if a context cannot be built
     */
    @Setup(Level.Trial)
    public void contexts() throws Exception {
        TestPki ca = TestPki.create("bench CA");
        Identity border = TestPki.identity(ca.border("border-a"));
        Identity app = TestPki.identity(ca.app("bench"));
        TrustBundle bundle;
        try (ReloadingFile<TrustBundle> file = ReloadingFile.bundle(ca.caPem(), "ca", Duration.ofHours(1))) {
            bundle = file.get();
        }
        SslProvider chosen = SslProvider.valueOf(provider);
        PeerTrustManager apps = PeerTrustManager.apps(() -> bundle, "egress.local");
        client = SslContextBuilder.forClient()
                .sslProvider(chosen)
                .sessionTimeout(300)
                .keyManager(new KeyManagerFactoryWrapper(new IdentityKeyManager(() -> app)))
                .trustManager(PeerTrustManager.border(() -> bundle, "egress.local", BorderId.of("border-a")))
                .endpointIdentificationAlgorithm(null)
                .build();
        server = SslContextBuilder.forServer(new KeyManagerFactoryWrapper(new IdentityKeyManager(() -> border)))
                .sslProvider(chosen)
                .sessionTimeout(300)
                .trustManager(apps)
                .clientAuth(ClientAuth.OPTIONAL)
                .build();
        handshake(RESUMED_PORT); // the session the resumed runs offer
    }

    /**
     * One handshake, until both ends are done and the client holds the server's ticket.
     *
     * @return the negotiated protocol (consumed by JMH)
     * @throws SSLException if the handshake fails
     */
    @Benchmark
    public String handshake() throws SSLException {
        return handshake(session.equals("resumed") ? RESUMED_PORT : nextPort++);
    }

    private String handshake(int port) throws SSLException {
        SSLEngine c = client.newEngine(ByteBufAllocator.DEFAULT, PEER, port);
        SSLEngine s = server.newEngine(ByteBufAllocator.DEFAULT);
        try {
            SSLParameters parameters = c.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm(null);
            c.setSSLParameters(parameters);
            Pump pump = new Pump();
            c.beginHandshake();
            s.beginHandshake();
            for (int round = 0; round < 50; round++) {
                boolean moved = pump.move(c, pump.toServer) | pump.receive(s, pump.toServer, pump.serverApp);
                moved |= pump.move(s, pump.toClient) | pump.receive(c, pump.toClient, pump.clientApp);
                if (!moved && done(c) && done(s)) {
                    break;
                }
            }
            if (!done(c) || !done(s)) {
                throw new SSLException(
                        "handshake did not finish: " + c.getHandshakeStatus() + "/" + s.getHandshakeStatus());
            }
            return c.getSession().getProtocol();
        } finally {
            ReferenceCountUtil.release(c);
            ReferenceCountUtil.release(s);
        }
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus status = engine.getHandshakeStatus();
        return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }

    /** The two directions of the in-memory link. */
    private static final class Pump {
        final ByteBuffer toServer = ByteBuffer.allocate(1 << 17);
        final ByteBuffer toClient = ByteBuffer.allocate(1 << 17);
        final ByteBuffer serverApp = ByteBuffer.allocate(1 << 17);
        final ByteBuffer clientApp = ByteBuffer.allocate(1 << 17);
        private final ByteBuffer empty = ByteBuffer.allocate(0);

        /** Wraps everything the engine wants to send into {@code out}. */
        boolean move(SSLEngine engine, ByteBuffer out) throws SSLException {
            boolean moved = false;
            for (int i = 0; i < 8; i++) {
                runTasks(engine);
                int produced = engine.wrap(empty, out).bytesProduced();
                runTasks(engine);
                if (produced == 0) {
                    break;
                }
                moved = true;
            }
            return moved;
        }

        /** Unwraps every record waiting in {@code in}. */
        boolean receive(SSLEngine engine, ByteBuffer in, ByteBuffer app) throws SSLException {
            in.flip();
            boolean moved = false;
            try {
                while (in.hasRemaining()) {
                    runTasks(engine);
                    int consumed = engine.unwrap(in, app).bytesConsumed();
                    runTasks(engine);
                    if (consumed == 0) {
                        break;
                    }
                    moved = true;
                }
            } finally {
                in.compact();
                app.clear();
            }
            return moved;
        }

        private static void runTasks(SSLEngine engine) {
            Runnable task;
            while ((task = engine.getDelegatedTask()) != null) {
                task.run();
            }
        }
    }
}
