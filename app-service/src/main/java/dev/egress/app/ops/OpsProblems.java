package dev.egress.app.ops;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemType;
import java.util.List;

/** The operator API's failures, as typed problems mapped once by {@link dev.egress.app.ProblemAdvice}. */
final class OpsProblems {

    private OpsProblems() {}

    /** 404: no live Border announces the IP, so there is nobody to apply a change on. */
    static final class IpNotHostedException extends EgressProblemException {
        IpNotHostedException(String ip) {
            super(Problem.of(ProblemType.IP_NOT_HOSTED, "no live Border announces ip '%s'".formatted(ip))
                    .with("ip", ip));
        }
    }

    /** 404: the Border a move names does not announce the IP (it must host it to take it over). */
    static final class MoveTargetNotHostingException extends EgressProblemException {
        MoveTargetNotHostingException(String ip, String border, List<String> hosting) {
            super(Problem.of(
                            ProblemType.IP_NOT_HOSTED,
                            "Border '%s' does not announce ip '%s' (announced by %s): configure the IP on it first"
                                    .formatted(border, ip, hosting))
                    .with("ip", ip)
                    .with("to", border));
        }
    }

    /**
     * 504: the bound passed before App's snapshot showed a move as done (the new owner claiming the IP, every
     * other Border releasing it). The body carries the current state per Border.
     */
    static final class MoveNotConfirmedException extends EgressProblemException {
        MoveNotConfirmedException(String detail, IpMove state) {
            super(Problem.of(ProblemType.CHANGE_NOT_CONFIRMED, detail)
                    .with("ip", state.ip())
                    .with("to", state.to())
                    .with("releasedOn", state.releasedOn())
                    .with("borders", List.copyOf(state.borders()))
                    .with("generation", state.generation()));
        }
    }

    /**
     * 503: every Border applied a move, but the claims table could not record it, so the claims of absent Borders
     * of the IP still stand (on every App). The body carries the state per Border; repeating the move is safe.
     */
    static final class MoveNotStoredException extends EgressProblemException {
        MoveNotStoredException(String cause, IpMove state) {
            super(Problem.of(
                            ProblemType.UNAVAILABLE,
                            "the Borders applied the move of %s to %s, but the claims table could not record it (%s):"
                                            .formatted(state.ip(), state.to(), cause)
                                    + " claims of absent Borders still stand; repeat the move")
                    .with("ip", state.ip())
                    .with("to", state.to())
                    .with("releasedOn", state.releasedOn())
                    .with("borders", List.copyOf(state.borders()))
                    .with("generation", state.generation()));
        }
    }

    /** 400: the body or the IP is not what the API takes. */
    static final class InvalidChangeException extends EgressProblemException {
        InvalidChangeException(String detail) {
            super(ProblemType.INVALID_REQUEST, detail);
        }
    }

    /**
     * 504: the bound passed before App's snapshot showed the change on every Border hosting the IP. The
     * body carries the current state per Border, so the operator sees what did and did not happen.
     */
    static final class ChangeNotConfirmedException extends EgressProblemException {
        ChangeNotConfirmedException(String detail, IpChange state) {
            super(Problem.of(ProblemType.CHANGE_NOT_CONFIRMED, detail)
                    .with("ip", state.ip())
                    .with("requested", state.status())
                    .with("conflict", state.conflict())
                    .with("appliedOn", state.appliedOn())
                    .with("borders", List.copyOf(state.borders()))
                    .with("generation", state.generation()));
        }
    }
}
