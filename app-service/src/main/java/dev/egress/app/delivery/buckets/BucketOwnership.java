package dev.egress.app.delivery.buckets;

import dev.egress.app.delivery.OwnedBuckets;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.common.retry.RetryUntilElapsed;
import tech.ydb.coordination.CoordinationClient;
import tech.ydb.coordination.CoordinationSession;
import tech.ydb.coordination.SemaphoreLease;
import tech.ydb.coordination.description.SemaphoreDescription;
import tech.ydb.coordination.settings.CoordinationSessionSettings;
import tech.ydb.coordination.settings.DescribeSemaphoreMode;
import tech.ydb.core.Result;
import tech.ydb.core.Status;
import tech.ydb.core.StatusCode;
import tech.ydb.core.grpc.GrpcTransport;
import tech.ydb.core.grpc.GrpcTransportBuilder;

/**
 * Holds this App's share of the delivery buckets as semaphores on a coordination node, as Borders hold their slots:
 * one session, the membership semaphore {@code workers} (every live App owns one unit, its data the worker id), and
 * the {@code bucket-<n>} semaphores (limit 1, so a bucket never has two owners). Every check interval it counts the
 * live Apps and moves towards its target: {@code count / live} buckets, one more for the first {@code count % live}
 * Apps in worker-id order, so the targets add up to every bucket and no App keeps trying for buckets it will not get.
 * It releases extras at once and takes free ones (a try that does not wait), so an App that joins gets its share as
 * the others release, and a dead App's buckets, freed by the node when its session times out, are taken within that
 * timeout and one check.
 *
 * <p>What it holds is published as one immutable array, swapped atomically. While the session is not connected it
 * publishes none: the node frees them when the session times out, and another App takes them (a record claimed
 * twice is still safe, claims are compare-and-set, but the point of buckets is that Apps do not fight over rows).
 * Every step runs on one thread and is bounded; a step that fails or gets no answer drops the session (stopping
 * it, which frees its buckets at once) and the next check opens a new one. A reattached session is replaced too:
 * SDK 2.2.10 does not survive a second stream break of a reattached session (see registry-ydb's {@code
 * SessionKeeper}).
 */
public final class BucketOwnership implements OwnedBuckets, AutoCloseable {

    /** The membership semaphore. */
    public static final String WORKERS = "workers";

    private static final Logger log = LoggerFactory.getLogger(BucketOwnership.class);
    private static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(10);

    private final BucketSettings settings;
    private final ScheduledExecutorService loop;
    private final AtomicReference<int[]> owned = new AtomicReference<>(new int[0]);

    // Loop thread only.
    private @Nullable GrpcTransport transport;
    private @Nullable CoordinationClient client;
    private @Nullable CoordinationSession session;
    private final NavigableMap<Integer, SemaphoreLease> leases = new TreeMap<>();
    private int live;
    private volatile boolean closed;

    private BucketOwnership(BucketSettings settings) {
        this.settings = settings;
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "delivery-buckets");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts holding buckets: the first check runs at once, off the caller's thread (the node may be down).
     *
     * @param settings where and how
     * @return the running ownership; {@link #current()} is empty until the first session holds buckets
     */
    public static BucketOwnership start(BucketSettings settings) {
        BucketOwnership ownership = new BucketOwnership(settings);
        ownership.loop.scheduleWithFixedDelay(
                ownership::check, 0, settings.checkInterval().toMillis(), TimeUnit.MILLISECONDS);
        return ownership;
    }

    @Override
    public int[] current() {
        return owned.get().clone();
    }

    /**
     * How many buckets this App holds now.
     *
     * @return the count
     */
    public int count() {
        return owned.get().length;
    }

    /** One check: (re)open the session if needed, then move towards the target share. */
    private void check() {
        if (closed) {
            return; // a state change queued a check while closing
        }
        boolean opening = false;
        try {
            if (session != null && !usable(session)) {
                drop("the session is " + session.getState());
            }
            if (session == null) {
                opening = true;
                open();
                opening = false;
            }
            if (session != null && session.getState().isConnected()) {
                rebalance(session);
            }
        } catch (RuntimeException e) {
            drop(e.getMessage());
            if (opening) {
                closeTransport(); // built afresh by the next check
            }
        }
        publish();
    }

    /** RECONNECTING is waited for; RECONNECTED, LOST and CLOSED mean a new session. */
    private static boolean usable(CoordinationSession s) {
        CoordinationSession.State state = s.getState();
        return state == CoordinationSession.State.CONNECTED || state == CoordinationSession.State.RECONNECTING;
    }

    private void open() {
        if (client == null) {
            GrpcTransportBuilder builder = GrpcTransport.forConnectionString(settings.connectionString())
                    .withDiscoveryTimeout(DISCOVERY_TIMEOUT);
            settings.credentials().ifPresent(builder::withAuthProvider);
            transport = builder.build();
            client = CoordinationClient.newClient(transport);
        }
        CoordinationClient coordination = client;
        expect("create node " + settings.node(), existing(await(coordination.createNode(settings.node()))));
        long timeout = settings.sessionTimeout().toMillis();
        CoordinationSession opened = coordination.createSession(
                settings.node(),
                CoordinationSessionSettings.newBuilder()
                        // The connect timeout is the server-side session timeout: how long a dead App keeps its
                        // buckets.
                        .withConnectTimeout(settings.sessionTimeout())
                        .withRetryPolicy(new RetryUntilElapsed(timeout, Math.max(10, Math.min(250, timeout / 4)), 5))
                        .build());
        session = opened;
        opened.addStateListener(state -> wake());
        expect("start a session", await(opened.connect()));
        // Every new session, because a node restart may have lost them (the embedded node keeps coordination in
        // memory); creating an existing one is success.
        createSemaphores(opened);
        Result<SemaphoreLease> joined = await(opened.acquireSemaphore(
                WORKERS, 1, settings.workerId().getBytes(StandardCharsets.UTF_8), STEP_TIMEOUT));
        expect("join " + WORKERS, joined.getStatus());
        log.info(
                "Delivery buckets: session {} on {} joined as {}",
                opened.getId(),
                settings.node(),
                settings.workerId());
    }

    /** Creates the membership and bucket semaphores when missing. */
    private void createSemaphores(CoordinationSession s) {
        expect("create semaphore " + WORKERS, existing(await(s.createSemaphore(WORKERS, Long.MAX_VALUE))));
        List<CompletableFuture<Status>> created = new ArrayList<>();
        for (int bucket = 0; bucket < settings.count(); bucket++) {
            created.add(s.createSemaphore(name(bucket), 1));
        }
        for (int bucket = 0; bucket < created.size(); bucket++) {
            expect("create semaphore " + name(bucket), existing(await(created.get(bucket))));
        }
    }

    private void rebalance(CoordinationSession s) {
        Result<SemaphoreDescription> members = await(s.describeSemaphore(WORKERS, DescribeSemaphoreMode.WITH_OWNERS));
        expect("describe " + WORKERS, members.getStatus());
        List<SemaphoreDescription.Session> owners =
                new ArrayList<>(members.getValue().getOwnersList());
        owners.sort(Comparator.comparing(
                        (SemaphoreDescription.Session o) -> new String(o.getData(), StandardCharsets.UTF_8))
                .thenComparingLong(SemaphoreDescription.Session::getId));
        int rank = 0;
        while (rank < owners.size() && owners.get(rank).getId() != s.getId()) {
            rank++;
        }
        if (rank == owners.size()) {
            throw new IllegalStateException(WORKERS + " does not list this session");
        }
        live = owners.size();
        int target = Shares.target(settings.count(), live, rank);
        while (leases.size() > target) {
            await(leases.pollLastEntry().getValue().release());
        }
        if (leases.size() < target) {
            take(s, target, Shares.firstTry(settings.count(), live, rank));
        }
    }

    /** Tries free buckets, starting at this App's own region so that joining Apps do not all try the same ones. */
    private void take(CoordinationSession s, int target, int from) {
        for (int i = 0; i < settings.count() && leases.size() < target; i++) {
            int bucket = (from + i) % settings.count();
            if (leases.containsKey(bucket)) {
                continue;
            }
            Result<SemaphoreLease> tried = await(s.acquireSemaphore(name(bucket), 1, Duration.ZERO));
            if (tried.isSuccess()) {
                leases.put(bucket, tried.getValue());
            } else if (tried.getStatus().getCode() != StatusCode.TIMEOUT) {
                expect("acquire " + name(bucket), tried.getStatus());
            }
        }
    }

    private void publish() {
        CoordinationSession s = session;
        int[] now = s != null && s.getState().isConnected()
                ? leases.keySet().stream().mapToInt(Integer::intValue).toArray()
                : new int[0];
        int[] before = owned.get();
        if (!Arrays.equals(before, now)) {
            owned.set(now);
            log.info(
                    "Delivery buckets: {} holds {} of {} ({} live Apps)",
                    settings.workerId(),
                    now.length,
                    settings.count(),
                    live);
        }
    }

    /** Stops the session (the node frees its buckets at once) and forgets what it held. */
    private void drop(String why) {
        CoordinationSession s = session;
        session = null;
        leases.clear();
        if (s != null) {
            log.warn("Delivery buckets: dropping session {} ({}); opening a new one", s.getId(), why);
            s.stop();
        } else {
            log.warn("Delivery buckets: no session ({}); trying again in {}", why, settings.checkInterval());
        }
    }

    private void wake() {
        try {
            loop.execute(this::check);
        } catch (RejectedExecutionException closing) {
            // closed meanwhile
        }
    }

    private void closeTransport() {
        GrpcTransport t = transport;
        transport = null;
        client = null;
        if (t != null) {
            t.close();
        }
    }

    /** Stops the session, which frees every bucket at once, and closes the transport. */
    @Override
    public void close() {
        closed = true;
        runOnLoop(() -> {
            CoordinationSession s = session;
            session = null;
            leases.clear();
            publish();
            if (s != null) {
                try {
                    s.stop().get(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (ExecutionException | TimeoutException e) {
                    log.debug("Delivery buckets: stopping the session: {}", e.toString());
                }
            }
            closeTransport();
        });
        loop.shutdownNow();
    }

    /**
     * Ends this owner as a killed process would: the transport goes, the session is never stopped, so the node
     * keeps its buckets until the session times out. For tests.
     */
    void abandon() {
        closed = true;
        runOnLoop(() -> {
            session = null;
            leases.clear();
            publish();
            closeTransport();
        });
        loop.shutdownNow();
    }

    private void runOnLoop(Runnable step) {
        try {
            loop.submit(step).get(STEP_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            log.debug("Delivery buckets: closing: {}", e.toString());
        }
    }

    /**
     * The semaphore of a bucket.
     *
     * @param bucket the bucket
     * @return its semaphore's name
     */
    public static String name(int bucket) {
        return "bucket-" + bucket;
    }

    private static Status existing(Status status) {
        return status.getCode() == StatusCode.ALREADY_EXISTS ? Status.SUCCESS : status;
    }

    private static void expect(String step, Status status) {
        if (!status.isSuccess()) {
            throw new IllegalStateException(step + ": " + status);
        }
    }

    private static <T> T await(CompletableFuture<T> call) {
        try {
            return call.get(STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(String.valueOf(e.getCause()), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer within " + STEP_TIMEOUT, e);
        }
    }
}
