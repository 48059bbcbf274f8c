package dev.egress.discovery.web.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code egress.*} properties a service's IDE sees and the ones its configuration page documents, so a
 * test can hold the two equal: the metadata that {@code spring-boot-configuration-processor} writes from the
 * properties records (every {@code META-INF/spring-configuration-metadata.json} on the class path, the
 * library's included), and the names in the first column of the page's property tables.
 */
public final class ConfigurationMetadata {

    private static final Pattern TABLE_ROW = Pattern.compile("^\\|([^|]*)\\|", Pattern.MULTILINE);
    private static final Pattern PROPERTY = Pattern.compile("`(egress\\.[a-z0-9.-]+)(?:\\.<[^>]+>|\\.\\[[^]]+])?`");

    private ConfigurationMetadata() {}

    /** Every {@code egress.*} property name in the configuration metadata on the class path. */
    public static Set<String> egressProperties() {
        Set<String> names = new TreeSet<>();
        try {
            for (URL url : Collections.list(ConfigurationMetadata.class
                    .getClassLoader()
                    .getResources("META-INF/spring-configuration-metadata.json"))) {
                try (InputStream in = url.openStream()) {
                    JsonNode root = JsonMapper.shared().readTree(in);
                    for (JsonNode property : root.path("properties")) {
                        String name = property.path("name").asString();
                        if (name.startsWith("egress.")) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /**
     * The {@code egress.*} names in the first column of the tables of a configuration page; a map-valued
     * property written {@code egress.x.<key>} counts as {@code egress.x}.
     */
    public static Set<String> documentedProperties(Path page) {
        String text;
        try {
            text = Files.readString(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> names = new TreeSet<>();
        Matcher row = TABLE_ROW.matcher(text);
        while (row.find()) {
            Matcher property = PROPERTY.matcher(row.group(1));
            while (property.find()) {
                names.add(property.group(1));
            }
        }
        return names;
    }
}
