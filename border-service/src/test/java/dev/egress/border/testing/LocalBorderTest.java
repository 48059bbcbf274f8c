package dev.egress.border.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.AliasFor;

/**
 * A whole Border on a random port with the in-memory registry and a patient {@code WebTestClient}: the
 * set-up that most Spring-level Border tests share, so each names only its own properties (usually
 * {@link BorderTestProperties} blocks and a few of its own).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient(timeout = "60s")
@Import(InMemoryRegistryConfiguration.class)
public @interface LocalBorderTest {

    /**
     * The Border's properties, as {@link SpringBootTest#properties()}.
     *
     * @return {@code key=value} entries (an entry may hold several lines)
     */
    @AliasFor(annotation = SpringBootTest.class, attribute = "properties")
    String[] value() default {};
}
