package dev.egress.app.ops;

import dev.egress.app.EgressProblemException;
import dev.egress.discovery.forward.Problems;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** The operator API's failures, as typed problems mapped once by {@link dev.egress.app.ProblemAdvice}. */
final class OpsProblems {

    /** Problem slug of a change App could not see applied within the bound. */
    static final String CHANGE_NOT_CONFIRMED = "change-not-confirmed";

    private OpsProblems() {
    }

    /** 404: no live Border announces the IP, so there is nobody to apply a change on. */
    static final class IpNotHostedException extends EgressProblemException {
        IpNotHostedException(String ip) {
            super(HttpStatus.NOT_FOUND, Problems.IP_NOT_HOSTED,
                    "no live Border announces ip '%s'".formatted(ip), Map.of("ip", ip));
        }
    }

    /** 400: the body or the IP is not what the API takes. */
    static final class InvalidChangeException extends EgressProblemException {
        InvalidChangeException(String detail) {
            super(HttpStatus.BAD_REQUEST, Problems.INVALID_REQUEST, detail, Map.of());
        }
    }

    /**
     * 504: the bound passed before App's snapshot showed the change on every Border hosting the IP. The
     * body carries the current state per Border, so the operator sees what did and did not happen.
     */
    static final class ChangeNotConfirmedException extends EgressProblemException {
        ChangeNotConfirmedException(String detail, IpChange state) {
            super(HttpStatus.GATEWAY_TIMEOUT, CHANGE_NOT_CONFIRMED, detail,
                    Map.of("ip", state.ip(), "requested", state.status(), "conflict", state.conflict(),
                            "appliedOn", state.appliedOn(), "borders", List.copyOf(state.borders()),
                            "generation", state.generation()));
        }
    }
}
