package dev.egress.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * App: the dispatch API. Routes each webhook tenant to a dedicated IP and a live Border, from a
 * local routing snapshot of the registry.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AppApplication {

    /**
     * Starts the App.
     *
     * @param args Spring Boot command-line properties ({@code --name=value})
     */
    public static void main(String[] args) {
        SpringApplication.run(AppApplication.class, args);
    }
}
