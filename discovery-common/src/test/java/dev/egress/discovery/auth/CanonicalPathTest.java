package dev.egress.discovery.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalPathTest {

    @ParameterizedTest
    @ValueSource(strings = {"/", "/internal/v1/egress", "/internal/v1/egress/", "/ops/v1/ips/%3A%3A1", "/ops/v1/ips/::1",
            "/ops/", "/v1/tenants/acme/egress", "/actuator/health/liveness", "/a%20b", "/file.name", "/..a", "/a.."})
    void acceptsPathsWithOneSpelling(String path) {
        assertThat(CanonicalPath.problem(path)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "internal", "/internal;x/v1/egress", "/internal/v1/egress;x", "/%69nternal/v1/egress",
            "/%49nternal", "/internal%2Fv1/egress", "/internal%2fv1", "//internal/v1/egress", "/internal//v1",
            "/./internal", "/x/../internal", "/internal/.", "/internal/..", "/%2E/internal", "/%2e%2e/internal",
            "/a%3Bb", "/a%25b", "/a%5Cb", "/a\\b", "/a%00b", "/a%7Fb", "/a%", "/a%4", "/a%zz", "/a b", "/caf\u00e9",
            "/a%7E", "/a%2D", "/a%5F"})
    void refusesPathsWithMoreThanOneSpelling(String path) {
        assertThat(CanonicalPath.problem(path)).isNotNull();
    }
}
