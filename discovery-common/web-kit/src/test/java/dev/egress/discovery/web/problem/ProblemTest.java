package dev.egress.discovery.web.problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ProblemTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void everySlugIsDefinedOnceAndSpellsItsTypeUri() {
        assertThat(Arrays.stream(ProblemType.values()).map(ProblemType::slug))
                .doesNotHaveDuplicates()
                .allMatch(slug -> slug.matches("[a-z]+(-[a-z]+)*"));
        assertThat(ProblemType.BORDER_ERROR.slug()).isEqualTo("border-error");
        assertThat(ProblemType.NO_EGRESS_AVAILABLE.type()).hasToString("urn:egress:problem:no-egress-available");
        assertThat(ProblemType.ofSlug("target-denied")).isEqualTo(ProblemType.TARGET_DENIED);
        assertThat(ProblemType.ofSlug("from-a-newer-peer")).isNull();
        assertThat(ProblemType.slugOf("urn:egress:problem:from-a-newer-peer")).isEqualTo("from-a-newer-peer");
        assertThat(ProblemType.slugOf("about:blank")).isNull();
    }

    @Test
    void rendersTargetContactedOnlyWhenStatedAndTheReasonInItsWireForm() throws Exception {
        Problem stated = Problem.of(ProblemType.TARGET_DENIED, "no")
                .withTargetContact(TargetContact.NONE)
                .withReason(ProblemReason.relayed("DENIED_RANGE"))
                .with("ip", "10.0.0.1");
        JsonNode body = JSON.readTree(ProblemResponses.json(stated));
        assertThat(body.get("type").stringValue()).isEqualTo("urn:egress:problem:target-denied");
        assertThat(body.get("title").stringValue()).isEqualTo("Forbidden");
        assertThat(body.get("status").intValue()).isEqualTo(403);
        assertThat(body.get("detail").stringValue()).isEqualTo("no");
        assertThat(body.get("targetContacted").booleanValue()).isFalse();
        assertThat(body.get("reason").stringValue()).isEqualTo("DENIED_RANGE");
        assertThat(body.get("ip").stringValue()).isEqualTo("10.0.0.1");
        assertThat(body.propertyNames())
                .containsExactlyInAnyOrder("type", "title", "status", "detail", "targetContacted", "reason", "ip");

        JsonNode unstated = JSON.readTree(ProblemResponses.json(Problem.of(ProblemType.UNKNOWN_TENANT, "who?")));
        assertThat(unstated.propertyNames()).containsExactlyInAnyOrder("type", "title", "status", "detail");
    }

    @Test
    void theReasonComesFirstAmongTheProperties() {
        Problem problem = Problem.of(ProblemType.TARGET_UNREACHABLE, "x")
                .with("cause", "refused")
                .withReason(ProblemReason.relayed("connection-refused"));
        assertThat(problem.properties())
                .containsExactly(Map.entry("reason", "connection-refused"), Map.entry("cause", "refused"));
    }

    @Test
    void typedMembersCannotHideInTheExtraMembers() {
        assertThatThrownBy(() -> Problem.of(ProblemType.UNAVAILABLE, "x").with("targetContacted", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("typed components");
    }

    @Test
    void aStatusOtherThanTheTypesAndRetryAfterGoIntoTheResponse() {
        var entity = ProblemResponses.entity(Problem.of(ProblemType.UNAVAILABLE, "internal error")
                .withStatus(HttpStatus.INTERNAL_SERVER_ERROR)
                .withRetryAfter(Duration.ofMillis(1500)));
        assertThat(entity.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(entity.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
        assertThat(entity.getBody().getType()).hasToString("urn:egress:problem:unavailable");
    }
}
