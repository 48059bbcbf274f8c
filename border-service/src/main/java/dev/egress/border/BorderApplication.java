package dev.egress.border;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Border: sends App's webhook calls from sockets bound to this machine's dedicated source IPs and
 * keeps its slot in the {@code borders-registry} semaphore true.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class BorderApplication {

    /**
     * Starts the Border.
     *
     * @param args Spring Boot command-line properties ({@code --name=value})
     */
    public static void main(String[] args) {
        SpringApplication.run(BorderApplication.class, args);
    }
}
