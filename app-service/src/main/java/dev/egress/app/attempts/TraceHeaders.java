package dev.egress.app.attempts;

import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.util.context.ContextView;

/**
 * The trace a delivery belongs to, as the headers of App's call to the Border (W3C {@code traceparent}): the
 * span of App's server observation of the delivery request, found in the Reactor context where WebFlux keeps
 * it. The Border's server continues that trace, so one trace id spans the caller, App and the Border. The
 * target never sees these headers: the Border's own client sends only the caller's webhook headers.
 */
public interface TraceHeaders {

    /** No tracing on the class path, or none configured: nothing is added. */
    TraceHeaders NONE = context -> Map.of();

    /**
     * The headers that carry the current trace.
     *
     * @param context the Reactor context of the call
     * @return header name to value, empty without a current span
     */
    Map<String, String> of(ContextView context);

    /**
     * Headers from Micrometer Tracing's propagator.
     *
     * @param propagator the configured propagator (W3C by default)
     * @return the headers' source
     */
    static TraceHeaders propagatedBy(Propagator propagator) {
        return context -> {
            Observation observation = context.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
            if (observation == null) {
                return Map.of();
            }
            TracingObservationHandler.TracingContext tracing =
                    observation.getContextView().get(TracingObservationHandler.TracingContext.class);
            if (tracing == null || tracing.getSpan() == null) {
                return Map.of();
            }
            Map<String, String> headers = new LinkedHashMap<>();
            propagator.inject(tracing.getSpan().context(), headers, Map::put);
            return headers;
        };
    }
}
