package dev.egress.ydb.coordination.node;

import static dev.egress.ydb.coordination.node.Limits.INFINITE;

import com.google.protobuf.ByteString;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tech.ydb.proto.StatusCodesProtos.StatusIds.StatusCode;
import tech.ydb.proto.coordination.SemaphoreDescription;
import tech.ydb.proto.coordination.SemaphoreSession;
import tech.ydb.proto.coordination.SessionRequest;
import tech.ydb.proto.coordination.SessionResponse;

/**
 * One coordination node: its sessions and semaphores, a deliberate single-threaded state machine modelled on
 * YDB's Kesus tablet. Every entry point only enqueues onto the node's own thread, which also runs all timers
 * (session expiry, waiter timeouts); so the order in which replies and watch notifications leave the node is
 * the order in which the transactions ran — that order is part of the protocol. Within one transaction the
 * requester's reply is sent first, then grants to other sessions, then watch notifications, as YDB queues
 * its events (two YDB exceptions are kept: a replaced watch hears {@code (false, false)} before the new describe
 * result, and a delete aborts waiters and notifies watchers before its own result).
 */
public final class CoordinationNode {

    private static final Logger log = LoggerFactory.getLogger(CoordinationNode.class);
    private static final String SUPERSEDED = "Operation superseded by another request";

    private final String path;
    private final AtomicReference<NodeConfig> config;
    private final ScheduledThreadPoolExecutor executor;

    private final Map<Long, Session> sessions = new HashMap<>();
    private final Map<SessionPeer, Session> attached = new IdentityHashMap<>();
    private final Map<String, Semaphore> semaphores = new HashMap<>();
    private long nextSessionId = 1;
    private long nextOrderId = 1;

    /**
     * Creates the node and its thread.
     *
     * @param path   the node's absolute path, e.g. {@code /local/egress}
     * @param config the node's configuration
     */
    public CoordinationNode(String path, NodeConfig config) {
        this.path = path;
        this.config = new AtomicReference<>(config);
        this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "coordination-node" + path.replace('/', '-'));
            thread.setDaemon(true);
            return thread;
        });
        // Cancelled timers (waiters granted early, sessions re-attached) must not pile up in the queue.
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** The node's absolute path. */
    public String path() {
        return path;
    }

    /** The node's current configuration. */
    public NodeConfig config() {
        return config.get();
    }

    void config(NodeConfig newConfig) {
        config.set(newConfig);
    }

    // ---------------------------------------------------------------- entry points (any thread)

    /**
     * Handles {@code session_start}: creates a session or re-attaches an existing one to {@code peer}. The peer
     * always gets an answer: {@code session_started} or a failure.
     */
    public void attach(SessionPeer peer, SessionRequest.SessionStart start) {
        if (!submit(() -> doAttach(peer, start))) {
            peer.fail(StatusCode.UNAVAILABLE, "Coordination node is shutting down");
        }
    }

    /** Handles a semaphore request (acquire, release, describe, create, update, delete) of {@code peer}'s session. */
    public void handle(SessionPeer peer, SessionRequest request) {
        submit(() -> doHandle(peer, request));
    }

    /** Handles {@code session_stop}: destroys the session, answers {@code session_stopped} and finishes the stream. */
    public void stop(SessionPeer peer) {
        if (!submit(() -> doStop(peer))) {
            peer.finish();
        }
    }

    /**
     * The stream of {@code peer} ended (error, cancel or half-close): its session, if any, stays alive detached
     * for its timeout; then the stream is finished.
     */
    public void detach(SessionPeer peer) {
        if (!submit(() -> doDetach(peer))) {
            peer.finish();
        }
    }

    /**
     * A consistency report, computed on the node thread; for tests and diagnostics, not the hot path.
     *
     * @return the report, or empty when the node has been closed (dropped) meanwhile
     */
    public Optional<NodeStateReport> report() {
        try {
            return Optional.of(CompletableFuture.supplyAsync(
                            () -> ConsistencyCheck.run(
                                    path,
                                    sessions,
                                    attached,
                                    semaphores,
                                    executor.getQueue().size()),
                            executor)
                    .get(30, TimeUnit.SECONDS));
        } catch (RejectedExecutionException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reporting " + path, e);
        } catch (Exception e) {
            if (executor.isShutdown()) {
                return Optional.empty();
            }
            throw new IllegalStateException("cannot report state of " + path, e);
        }
    }

    /**
     * Stops the node: attached streams get {@code failure{status}}, timers are dropped, the thread ends.
     *
     * @param status  the failure status for attached streams
     * @param message the failure message
     */
    public void close(StatusCode status, String message) {
        submit(() -> {
            for (SessionPeer peer : List.copyOf(attached.keySet())) {
                peer.fail(status, message);
            }
            attached.clear();
        });
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private boolean submit(Runnable task) {
        try {
            executor.execute(() -> guarded(task));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private void guarded(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            // The node thread must survive any bug in one transaction; the report will show the damage.
            log.error("Coordination node {}: transaction failed", path, e);
        }
    }

    private void schedule(Runnable task, long delayMillis, Consumer<ScheduledFuture<?>> armed) {
        try {
            armed.accept(executor.schedule(() -> guarded(task), delayMillis, TimeUnit.MILLISECONDS));
        } catch (RejectedExecutionException e) {
            // shutting down: nothing will expire any more
        }
    }

    // ---------------------------------------------------------------- sessions

    private void doAttach(SessionPeer peer, SessionRequest.SessionStart start) {
        if (attached.containsKey(peer)) {
            peer.fail(StatusCode.BAD_REQUEST, "Session cannot be started twice");
            return;
        }
        String invalid = invalidStart(start);
        if (invalid != null) {
            peer.fail(StatusCode.BAD_REQUEST, invalid);
            return;
        }
        Session session = start.getSessionId() == 0 ? createSession(peer, start) : reattach(peer, start);
        if (session == null) {
            return; // refused, and answered
        }
        session.peer = peer;
        attached.put(peer, session);
        peer.send(Responses.started(session.id));
        peer.onAttached(start.getTimeoutMillis());
    }

    /** What makes a session start malformed, or null if nothing does. */
    private static @Nullable String invalidStart(SessionRequest.SessionStart start) {
        if (Long.compareUnsigned(start.getTimeoutMillis(), Limits.MAX_SESSION_TIMEOUT_MILLIS) > 0) {
            return "Session timeout is out of range";
        }
        if (start.getDescriptionBytes().size() > Limits.MAX_DESCRIPTION_BYTES) {
            return "Description is too large";
        }
        if (start.getProtectionKey().size() > Limits.MAX_PROTECTION_KEY_BYTES) {
            return "Protection key is too large";
        }
        return null;
    }

    /** A new session, or null after refusing it (too many). */
    private @Nullable Session createSession(SessionPeer peer, SessionRequest.SessionStart start) {
        if (sessions.size() >= Limits.MAX_SESSIONS) {
            peer.fail(StatusCode.PRECONDITION_FAILED, "Too many sessions already exist");
            return null;
        }
        Session session = new Session(
                nextSessionId++,
                start.getTimeoutMillis(),
                start.getDescription(),
                start.getProtectionKey(),
                start.getSeqNo());
        sessions.put(session.id, session);
        log.debug("Node {}: session {} created (timeout {} ms)", path, session.id, start.getTimeoutMillis());
        return session;
    }

    /**
     * An existing session moved to {@code peer} (stolen from its current stream, if any), or null after refusing
     * it (expired, out of sequence, wrong protection key).
     */
    private @Nullable Session reattach(SessionPeer peer, SessionRequest.SessionStart start) {
        Session session = sessions.get(start.getSessionId());
        if (session == null) {
            peer.fail(StatusCode.SESSION_EXPIRED, "Session does not exist");
            return null;
        }
        if (Long.compareUnsigned(start.getSeqNo(), session.lastSeqNo) < 0) {
            peer.fail(StatusCode.BAD_SESSION, "Attach request is out of sequence");
            return null;
        }
        if (!session.protectionKey.isEmpty() && !session.protectionKey.equals(start.getProtectionKey())) {
            peer.fail(StatusCode.BAD_SESSION, "Attach request protection key mismatch");
            return null;
        }
        session.timeoutMillis = start.getTimeoutMillis();
        session.description = start.getDescription();
        session.lastSeqNo = start.getSeqNo();
        if (session.peer != null) {
            SessionPeer stolenFrom = session.peer;
            attached.remove(stolenFrom);
            stolenFrom.fail(StatusCode.BAD_SESSION, "Session stolen by another local client");
        }
        session.cancelExpiry();
        // As YDB: a new attachment starts without watches and without pending acquire replies; owned
        // semaphores and queued waiters stay.
        session.clearWatches();
        session.waitCookies.clear();
        log.debug("Node {}: session {} re-attached", path, session.id);
        return session;
    }

    private void doDetach(SessionPeer peer) {
        Session session = attached.remove(peer);
        if (session != null) {
            session.peer = null;
            session.clearWatches();
            session.waitCookies.clear();
            scheduleExpiry(session);
            log.debug("Node {}: session {} detached, expires in {} ms", path, session.id, session.timeoutMillis);
        }
        peer.finish();
    }

    private void scheduleExpiry(Session session) {
        if (session.timeoutMillis == INFINITE) {
            return;
        }
        schedule(() -> expire(session), session.timeoutMillis, future -> session.expiry = future);
    }

    private void expire(Session session) {
        if (sessions.get(session.id) != session || session.peer != null) {
            return; // re-attached or already gone
        }
        int owned = session.owned.size();
        int waiting = session.waiting.size();
        deleteSession(session);
        // A state change worth INFO: a client (a Border) vanished and its slots are gone now.
        log.info(
                "Node {}: session {} expired after {} ms detached; released {} owned and {} waiting semaphores",
                path,
                session.id,
                Long.toUnsignedString(session.timeoutMillis),
                owned,
                waiting);
    }

    private void doStop(SessionPeer peer) {
        Session session = attached.remove(peer);
        if (session == null) {
            peer.fail(StatusCode.BAD_SESSION, "Session not attached");
            return;
        }
        session.peer = null;
        deleteSession(session);
        log.debug("Node {}: session {} stopped", path, session.id);
        peer.send(Responses.stopped(session.id));
        peer.finish();
    }

    private void deleteSession(Session session) {
        session.cancelExpiry();
        session.clearWatches();
        session.waitCookies.clear();
        sessions.remove(session.id);
        for (Map.Entry<Semaphore, Owner> owned : List.copyOf(session.owned.entrySet())) {
            deleteOwner(owned.getKey(), owned.getValue());
        }
        for (Map.Entry<Semaphore, Waiter> waiting : List.copyOf(session.waiting.entrySet())) {
            deleteWaiter(waiting.getKey(), waiting.getValue());
        }
    }

    // ---------------------------------------------------------------- semaphore requests

    private void doHandle(SessionPeer peer, SessionRequest request) {
        Session session = attached.get(peer);
        if (session == null) {
            peer.send(Responses.error(request, StatusCode.BAD_SESSION, "Session not attached"));
            return;
        }
        switch (request.getRequestCase()) {
            case ACQUIRE_SEMAPHORE -> acquire(session, request);
            case RELEASE_SEMAPHORE -> release(session, request.getReleaseSemaphore());
            case DESCRIBE_SEMAPHORE -> describe(session, request);
            case CREATE_SEMAPHORE -> create(session, request);
            case UPDATE_SEMAPHORE -> update(session, request);
            case DELETE_SEMAPHORE -> delete(session, request);
            default -> peer.fail(StatusCode.BAD_REQUEST, "Unimplemented request");
        }
    }

    private void acquire(Session session, SessionRequest request) {
        SessionRequest.AcquireSemaphore acquire = request.getAcquireSemaphore();
        String invalid = invalidAcquire(acquire);
        if (invalid != null) {
            reply(session, Responses.error(request, StatusCode.BAD_REQUEST, invalid));
            return;
        }
        Semaphore semaphore = semaphoreToAcquire(session, request);
        if (semaphore == null) {
            return; // refused, and answered
        }
        Owner owner = session.owned.get(semaphore);
        if (owner != null) {
            reacquire(session, semaphore, owner, request);
            return;
        }
        Waiter queued = session.waiting.get(semaphore);
        Waiter waiter =
                queued != null ? requeue(session, semaphore, queued, request) : enqueue(session, semaphore, request);
        if (waiter != null) {
            awaitGrant(session, semaphore, waiter, acquire.getReqId());
        }
    }

    /** What makes an acquire malformed whatever the semaphore's state, or null if nothing does. */
    private static @Nullable String invalidAcquire(SessionRequest.AcquireSemaphore acquire) {
        long timeout = acquire.getTimeoutMillis();
        if (acquire.getCount() == 0) {
            return "Acquire must have count > 0";
        }
        if (timeout != INFINITE && Long.compareUnsigned(timeout, Limits.MAX_ACQUIRE_TIMEOUT_MILLIS) > 0) {
            return "Acquire timeout is out of range";
        }
        if (acquire.getData().size() > Limits.MAX_DATA_BYTES) {
            return "Acquire data is too large";
        }
        return null;
    }

    /**
     * The semaphore an acquire is for, creating an ephemeral one on first use; null after answering a refusal
     * (missing, ephemeral mode mismatch, count above the limit, too many semaphores).
     */
    private @Nullable Semaphore semaphoreToAcquire(Session session, SessionRequest request) {
        SessionRequest.AcquireSemaphore acquire = request.getAcquireSemaphore();
        Semaphore semaphore = semaphores.get(acquire.getName());
        if (semaphore == null && !acquire.getEphemeral()) {
            reply(session, Responses.error(request, StatusCode.NOT_FOUND, "Semaphore does not exist"));
            return null;
        }
        if (semaphore != null && semaphore.ephemeral != acquire.getEphemeral()) {
            reply(
                    session,
                    Responses.error(request, StatusCode.PRECONDITION_FAILED, "Semaphore ephemeral mode mismatch"));
            return null;
        }
        if (semaphore != null && Long.compareUnsigned(acquire.getCount(), semaphore.limit) > 0) {
            reply(
                    session,
                    Responses.error(
                            request, StatusCode.BAD_REQUEST, "Cannot acquire more than allowed by the semaphore"));
            return null;
        }
        if (semaphore == null) {
            if (semaphores.size() >= Limits.MAX_SEMAPHORES) {
                reply(
                        session,
                        Responses.error(request, StatusCode.PRECONDITION_FAILED, "Too many semaphores already exist"));
                return null;
            }
            semaphore = new Semaphore(acquire.getName(), INFINITE, ByteString.EMPTY, true);
            semaphores.put(semaphore.name, semaphore);
        }
        return semaphore;
    }

    /**
     * A new acquire by a session already queued: it supersedes the pending one (which is answered ABORTED) and
     * may lower the count. A "try once" ({@code timeout == 0}) that cannot be granted now leaves the queue.
     *
     * @return the updated waiter, or null if the request was answered and nothing waits any more
     */
    private @Nullable Waiter requeue(Session session, Semaphore semaphore, Waiter waiter, SessionRequest request) {
        SessionRequest.AcquireSemaphore acquire = request.getAcquireSemaphore();
        long count = acquire.getCount();
        if (Long.compareUnsigned(count, waiter.count) > 0) {
            reply(session, Responses.error(request, StatusCode.BAD_REQUEST, "Increasing count is not allowed"));
            return null;
        }
        Long previous = session.waitCookies.remove(semaphore);
        if (previous != null) {
            reply(session, Responses.acquireFailed(previous, StatusCode.ABORTED, SUPERSEDED));
        }
        boolean grantableNow = semaphore.isHead(waiter) && semaphore.canAcquire(count);
        if (acquire.getTimeoutMillis() == 0 && !grantableNow) {
            // "try once": fold the timeout instead of queueing a request that cannot be granted now
            reply(session, Responses.acquired(acquire.getReqId(), false));
            deleteWaiter(semaphore, waiter);
            return null;
        }
        waiter.timeoutMillis = acquire.getTimeoutMillis();
        waiter.count = count;
        waiter.data = acquire.getData();
        return waiter;
    }

    /**
     * A first acquire by a session: joins the tail of the queue, unless it is a "try once" that cannot be
     * granted now (answered at once, nothing queued).
     *
     * @return the new waiter, or null if the request was answered
     */
    private @Nullable Waiter enqueue(Session session, Semaphore semaphore, SessionRequest request) {
        SessionRequest.AcquireSemaphore acquire = request.getAcquireSemaphore();
        long count = acquire.getCount();
        boolean grantableNow = semaphore.waiters.isEmpty() && semaphore.canAcquire(count);
        if (acquire.getTimeoutMillis() == 0 && !grantableNow) {
            reply(session, Responses.acquired(acquire.getReqId(), false));
            return null;
        }
        Waiter waiter = new Waiter(nextOrderId++, session, count, acquire.getData(), acquire.getTimeoutMillis());
        semaphore.waiters.put(waiter.orderId, waiter);
        session.waiting.put(semaphore, waiter);
        return waiter;
    }

    /** Grants the waiter now if it heads the queue and fits; otherwise answers "pending" and arms its timeout. */
    private void awaitGrant(Session session, Semaphore semaphore, Waiter waiter, long reqId) {
        session.waitCookies.put(semaphore, reqId);
        waiter.cancelTimer();
        if (semaphore.isHead(waiter)) {
            grantFromHead(semaphore);
        }
        if (session.waiting.get(semaphore) == waiter) {
            scheduleWaiterTimeout(semaphore, waiter);
            reply(session, Responses.pending(reqId));
        }
    }

    /** Acquire by a session that already owns the semaphore: same count replaces data, smaller count shrinks. */
    private void reacquire(Session session, Semaphore semaphore, Owner owner, SessionRequest request) {
        SessionRequest.AcquireSemaphore acquire = request.getAcquireSemaphore();
        long count = acquire.getCount();
        if (Long.compareUnsigned(count, owner.count) > 0) {
            reply(session, Responses.error(request, StatusCode.BAD_REQUEST, "Increasing count is not allowed"));
            return;
        }
        if (count == owner.count) {
            boolean dataChanged = !owner.data.equals(acquire.getData());
            owner.data = acquire.getData();
            reply(session, Responses.acquired(acquire.getReqId(), true));
            if (dataChanged) {
                notifyWatchers(semaphore, WatchEvent.OWNERS_CHANGED); // an owner's data is part of the owners
            }
            return;
        }
        semaphore.count -= owner.count;
        owner.count = count;
        semaphore.count += count;
        owner.data = acquire.getData();
        reply(session, Responses.acquired(acquire.getReqId(), true));
        ownersChanged(semaphore);
    }

    private void scheduleWaiterTimeout(Semaphore semaphore, Waiter waiter) {
        if (waiter.timeoutMillis == INFINITE) {
            return;
        }
        schedule(() -> waiterTimedOut(semaphore, waiter), waiter.timeoutMillis, future -> waiter.timer = future);
    }

    private void waiterTimedOut(Semaphore semaphore, Waiter waiter) {
        if (semaphore.waiters.get(waiter.orderId) != waiter) {
            return; // granted, released or superseded meanwhile
        }
        waiter.timer = null;
        Long cookie = waiter.session.waitCookies.remove(semaphore);
        if (cookie != null) {
            reply(waiter.session, Responses.acquired(cookie, false));
        }
        deleteWaiter(semaphore, waiter);
    }

    private void release(Session session, SessionRequest.ReleaseSemaphore release) {
        Semaphore semaphore = semaphores.get(release.getName());
        if (semaphore != null) {
            Owner owner = session.owned.get(semaphore);
            if (owner != null) {
                reply(session, Responses.released(release.getReqId(), true));
                deleteOwner(semaphore, owner);
                return;
            }
            Waiter waiter = session.waiting.get(semaphore);
            if (waiter != null) {
                Long cookie = session.waitCookies.remove(semaphore);
                if (cookie != null) {
                    reply(session, Responses.acquireFailed(cookie, StatusCode.ABORTED, SUPERSEDED));
                }
                reply(session, Responses.released(release.getReqId(), true));
                deleteWaiter(semaphore, waiter);
                return;
            }
        }
        reply(session, Responses.released(release.getReqId(), false));
    }

    private void describe(Session session, SessionRequest request) {
        SessionRequest.DescribeSemaphore describe = request.getDescribeSemaphore();
        Semaphore semaphore = semaphores.get(describe.getName());
        if (semaphore == null) {
            reply(session, Responses.error(request, StatusCode.NOT_FOUND, "Semaphore not found"));
            return;
        }
        SemaphoreDescription.Builder description = SemaphoreDescription.newBuilder()
                .setName(semaphore.name)
                .setData(semaphore.data)
                .setCount(semaphore.count)
                .setLimit(semaphore.limit)
                .setEphemeral(semaphore.ephemeral);
        if (describe.getIncludeOwners()) {
            semaphore.owners.values().stream()
                    .sorted(Comparator.comparing(o -> o.orderId, Long::compareUnsigned))
                    .forEach(o -> description.addOwners(SemaphoreSession.newBuilder()
                            .setOrderId(o.orderId)
                            .setSessionId(o.session.id)
                            .setCount(o.count)
                            .setData(o.data)));
        }
        if (describe.getIncludeWaiters()) {
            for (Waiter w : semaphore.waiters.values()) {
                description.addWaiters(SemaphoreSession.newBuilder()
                        .setOrderId(w.orderId)
                        .setSessionId(w.session.id)
                        .setTimeoutMillis(w.timeoutMillis)
                        .setCount(w.count)
                        .setData(w.data));
            }
        }
        boolean watch = describe.getWatchData() || describe.getWatchOwners();
        if (watch) {
            boolean replacing = semaphore.dataWatchers.remove(session) | semaphore.ownersWatchers.remove(session);
            Long replaced = replacing ? session.watchCookies.remove(semaphore) : null;
            session.watchCookies.put(semaphore, describe.getReqId());
            if (describe.getWatchData()) {
                semaphore.dataWatchers.add(session);
            }
            if (describe.getWatchOwners()) {
                semaphore.ownersWatchers.add(session);
            }
            // YDB sends the replaced watch's (false, false) before the new describe result.
            if (replaced != null) {
                reply(session, Responses.changed(replaced, false, false));
            }
        }
        reply(session, Responses.described(describe.getReqId(), description.build(), watch));
    }

    private void create(Session session, SessionRequest request) {
        SessionRequest.CreateSemaphore create = request.getCreateSemaphore();
        if (create.getLimit() == 0) {
            reply(session, Responses.error(request, StatusCode.BAD_REQUEST, "Semaphores must have limit > 0"));
            return;
        }
        if (create.getNameBytes().size() > Limits.MAX_NAME_BYTES) {
            reply(session, Responses.error(request, StatusCode.BAD_REQUEST, "Semaphore name is too long"));
            return;
        }
        if (create.getData().size() > Limits.MAX_DATA_BYTES) {
            reply(session, Responses.error(request, StatusCode.BAD_REQUEST, "Semaphore data is too large"));
            return;
        }
        Semaphore existing = semaphores.get(create.getName());
        if (existing != null) {
            reply(
                    session,
                    existing.ephemeral
                            ? Responses.error(
                                    request,
                                    StatusCode.PRECONDITION_FAILED,
                                    "Cannot create semaphore due to ephemeral locks")
                            : Responses.error(request, StatusCode.ALREADY_EXISTS, "Semaphore already exists"));
            return;
        }
        if (semaphores.size() >= Limits.MAX_SEMAPHORES) {
            reply(
                    session,
                    Responses.error(request, StatusCode.PRECONDITION_FAILED, "Too many semaphores already exist"));
            return;
        }
        semaphores.put(create.getName(), new Semaphore(create.getName(), create.getLimit(), create.getData(), false));
        reply(session, Responses.ok(request));
    }

    private void update(Session session, SessionRequest request) {
        SessionRequest.UpdateSemaphore update = request.getUpdateSemaphore();
        if (update.getNameBytes().size() > Limits.MAX_NAME_BYTES) {
            reply(session, Responses.error(request, StatusCode.BAD_REQUEST, "Semaphore name is too long"));
            return;
        }
        if (update.getData().size() > Limits.MAX_DATA_BYTES) {
            reply(session, Responses.error(request, StatusCode.BAD_REQUEST, "Semaphore data is too large"));
            return;
        }
        Semaphore semaphore = semaphores.get(update.getName());
        if (semaphore == null) {
            reply(session, Responses.error(request, StatusCode.NOT_FOUND, "Semaphore does not exist"));
            return;
        }
        boolean changed = !semaphore.data.equals(update.getData());
        semaphore.data = update.getData();
        reply(session, Responses.ok(request));
        if (changed) {
            notifyWatchers(semaphore, WatchEvent.DATA_CHANGED);
        }
    }

    private void delete(Session session, SessionRequest request) {
        SessionRequest.DeleteSemaphore delete = request.getDeleteSemaphore();
        Semaphore semaphore = semaphores.get(delete.getName());
        if (semaphore == null) {
            reply(session, Responses.error(request, StatusCode.NOT_FOUND, "Semaphore does not exist"));
            return;
        }
        if (semaphore.ephemeral) {
            reply(
                    session,
                    Responses.error(request, StatusCode.PRECONDITION_FAILED, "Cannot delete ephemeral semaphores"));
            return;
        }
        if (!delete.getForce() && !semaphore.isEmpty()) {
            reply(session, Responses.error(request, StatusCode.PRECONDITION_FAILED, "Semaphore not empty"));
            return;
        }
        // The one exception to "requester first": YDB's delete transaction queues the waiters' ABORTED and the
        // watch notifications before the delete result, and so does this node.
        deleteSemaphore(semaphore);
        reply(session, Responses.ok(request));
    }

    // ---------------------------------------------------------------- shared transitions

    /** Removes a semaphore with everything in it: owners silently, waiters with ABORTED, all watchers fire. */
    private void deleteSemaphore(Semaphore semaphore) {
        for (Owner owner : semaphore.owners.values()) {
            owner.session.owned.remove(semaphore);
        }
        semaphore.owners.clear();
        semaphore.count = 0;
        for (Waiter waiter : semaphore.waiters.values()) {
            waiter.cancelTimer();
            Long cookie = waiter.session.waitCookies.remove(semaphore);
            if (cookie != null) {
                reply(waiter.session, Responses.acquireFailed(cookie, StatusCode.ABORTED, "Semaphore destroyed"));
            }
            waiter.session.waiting.remove(semaphore);
        }
        semaphore.waiters.clear();
        notifyWatchers(semaphore, WatchEvent.DELETED);
        semaphores.remove(semaphore.name, semaphore);
    }

    private void deleteOwner(Semaphore semaphore, Owner owner) {
        semaphore.count -= owner.count;
        semaphore.owners.remove(owner.session);
        owner.session.owned.remove(semaphore);
        if (semaphore.ephemeral && semaphore.isEmpty()) {
            notifyWatchers(semaphore, WatchEvent.DELETED);
            semaphores.remove(semaphore.name, semaphore);
        } else {
            ownersChanged(semaphore);
        }
    }

    private void deleteWaiter(Semaphore semaphore, Waiter waiter) {
        boolean wasHead = semaphore.isHead(waiter);
        semaphore.waiters.remove(waiter.orderId);
        waiter.cancelTimer();
        waiter.session.waiting.remove(semaphore);
        waiter.session.waitCookies.remove(semaphore);
        if (wasHead) {
            grantFromHead(semaphore);
        }
        if (semaphore.ephemeral && semaphore.isEmpty()) {
            // Unreachable while an ephemeral semaphore's limit is Max<ui64> (its waiters always have owners
            // ahead of them), kept so that an empty ephemeral semaphore can never leak.
            notifyWatchers(semaphore, WatchEvent.DELETED);
            semaphores.remove(semaphore.name, semaphore);
        }
    }

    /** The owners changed (released, shrunk, gone): grants whoever fits now, then tells the owner watchers once. */
    private void ownersChanged(Semaphore semaphore) {
        grantWaiters(semaphore);
        notifyWatchers(semaphore, WatchEvent.OWNERS_CHANGED);
    }

    /** The head of the queue may fit now: grants what fits and tells the owner watchers if anything was granted. */
    private void grantFromHead(Semaphore semaphore) {
        if (grantWaiters(semaphore)) {
            notifyWatchers(semaphore, WatchEvent.OWNERS_CHANGED);
        }
    }

    /**
     * Grants waiters strictly from the head of the FIFO queue; a head that does not fit blocks the rest.
     *
     * @return whether any waiter became an owner
     */
    private boolean grantWaiters(Semaphore semaphore) {
        boolean granted = false;
        while (!semaphore.waiters.isEmpty()) {
            Waiter waiter = semaphore.waiters.firstEntry().getValue();
            if (!semaphore.canAcquire(waiter.count)) {
                break;
            }
            semaphore.waiters.pollFirstEntry();
            waiter.cancelTimer();
            Session session = waiter.session;
            Owner owner = new Owner(waiter.orderId, session, waiter.count, waiter.data);
            semaphore.count += waiter.count;
            semaphore.owners.put(session, owner);
            session.waiting.remove(semaphore);
            session.owned.put(semaphore, owner);
            Long cookie = session.waitCookies.remove(semaphore);
            if (cookie != null) {
                reply(session, Responses.acquired(cookie, true));
            }
            granted = true;
        }
        return granted;
    }

    /** One-shot watch notifications, with the flags of the event (as YDB's {@code NotifyWatchers}). */
    private void notifyWatchers(Semaphore semaphore, WatchEvent event) {
        if (event.dataChanged()) {
            for (Session watcher : semaphore.dataWatchers) {
                semaphore.ownersWatchers.remove(watcher);
                fireWatch(watcher, semaphore, event);
            }
            semaphore.dataWatchers.clear();
        }
        if (event.ownersChanged()) {
            for (Session watcher : semaphore.ownersWatchers) {
                if (!event.dataChanged()) {
                    semaphore.dataWatchers.remove(watcher);
                }
                fireWatch(watcher, semaphore, event);
            }
            semaphore.ownersWatchers.clear();
        }
    }

    private void fireWatch(Session watcher, Semaphore semaphore, WatchEvent event) {
        Long cookie = watcher.watchCookies.remove(semaphore);
        if (cookie != null) {
            reply(watcher, Responses.changed(cookie, event.dataChanged(), event.ownersChanged()));
        }
    }

    private static void reply(Session session, SessionResponse response) {
        SessionPeer peer = session.peer;
        if (peer != null) {
            peer.send(response);
        }
    }
}
