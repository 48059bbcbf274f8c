package dev.egress.discovery.web.forward;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.discovery.web.problem.Problem;
import dev.egress.discovery.web.problem.ProblemReason;
import dev.egress.discovery.web.problem.ProblemResponses;
import dev.egress.discovery.web.problem.ProblemType;
import dev.egress.discovery.web.problem.TargetContact;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.json.ProblemDetailJacksonMixin;
import tools.jackson.databind.json.JsonMapper;

/** How App reads a Border's problem answer: the slug, reason, detail and the one retry rule's flag. */
class BorderProblemTest {

    private static final JsonMapper JSON = JsonMapper.shared();

    private static BorderProblem decode(String body) {
        return BorderProblem.read(JSON, body.getBytes(StandardCharsets.UTF_8)).orElseThrow();
    }

    @Test
    void readsTheSlugReasonDetailAndAnExplicitlyUncontactedTarget() {
        assertThat(decode("""
                        {"type":"urn:egress:problem:ip-not-active","title":"x","status":409,
                         "detail":"127.0.0.2 is DRAINING","reason":"draining","targetContacted":false}"""))
                .isEqualTo(new BorderProblem("ip-not-active", "draining", "127.0.0.2 is DRAINING", false));
    }

    @Test
    void readsWhatTheBordersOwnProblemModelWrites() {
        Problem written = Problem.of(ProblemType.TARGET_UNREACHABLE, "connection refused")
                .withTargetContact(TargetContact.NONE)
                .withReason(ProblemReason.relayed("connection-refused"));
        JsonMapper wire = JsonMapper.builder()
                .addMixIn(ProblemDetail.class, ProblemDetailJacksonMixin.class)
                .build();
        byte[] body = wire.writeValueAsBytes(ProblemResponses.body(written));
        assertThat(BorderProblem.read(JSON, body))
                .contains(new BorderProblem("target-unreachable", "connection-refused", "connection refused", false));
    }

    @Test
    void countsTheTargetAsContactedUnlessTheBorderSaysOtherwise() {
        assertThat(decode("{\"type\":\"urn:egress:problem:border-error\",\"targetContacted\":true}")
                        .targetContacted())
                .isTrue();
        assertThat(decode("{\"type\":\"urn:egress:problem:border-error\"}").targetContacted())
                .isTrue();
        assertThat(decode("{\"targetContacted\":\"false\"}").targetContacted())
                .as("only a JSON boolean counts")
                .isTrue();
        assertThat(decode("{\"targetContacted\":0}").targetContacted()).isTrue();
    }

    @Test
    void leavesMembersThatAreAbsentOrNotStringsNull() {
        assertThat(decode("{\"type\":7,\"reason\":[\"x\"],\"detail\":null}"))
                .isEqualTo(new BorderProblem(null, null, null, true));
        assertThat(decode("{\"type\":\"https://example.com/not-ours\"}").slug())
                .as("a type that is not urn:egress:problem:*")
                .isNull();
    }

    @Test
    void treatsJsonThatIsNotAnObjectAsAProblemWithoutMembers() {
        assertThat(decode("[1,2]")).isEqualTo(new BorderProblem(null, null, null, true));
        assertThat(decode("\"text\"")).isEqualTo(new BorderProblem(null, null, null, true));
    }

    @Test
    void readsNothingFromABodyThatIsNotJson() {
        assertThat(BorderProblem.read(JSON, "<html>Bad Gateway</html>".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
    }

    @Test
    void readsAnEmptyBodyAsAProblemWithoutMembersOrNothing() {
        assertThat(BorderProblem.read(JSON, new byte[0]))
                .as("JSON's empty document (Jackson: a missing node), or not JSON")
                .satisfiesAnyOf(
                        empty -> assertThat(empty).isEmpty(),
                        nothing -> assertThat(nothing).contains(new BorderProblem(null, null, null, true)));
    }

    @Test
    void buildsTheIpPathFromTheTemplate() {
        assertThat(BorderPaths.ip("127.0.0.2")).isEqualTo("/internal/v1/ips/127.0.0.2");
        assertThat(BorderPaths.IP.replace("{ip}", "2001:db8::1")).isEqualTo(BorderPaths.ip("2001:db8::1"));
        assertThat(BorderPaths.EGRESS).isEqualTo("/internal/v1/egress");
    }
}
