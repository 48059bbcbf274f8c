package dev.egress.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/delivery-tables.yql, the tables an operator creates by hand where App's credential may not, is the schema
 * App creates itself ({@code DeliverySchema}'s statements with no table prefix): a column, an index or the TTL
 * added to one and not the other fails here.
 */
class DeliveryTablesYqlTest {

    private static final Path REPOSITORY = ChartRendering.CHART.getParent().getParent();
    private static final Path SCHEMA =
            REPOSITORY.resolve("app-service/src/main/java/dev/egress/app/delivery/ydb/DeliverySchema.java");
    private static final Path YQL = REPOSITORY.resolve("docs/delivery-tables.yql");
    /** A text block of the schema, formatted with the table's name: {@code """ ... """.formatted(name)}. */
    private static final Pattern STATEMENT =
            Pattern.compile("\"\"\"\\s*(CREATE TABLE .*?)\"\"\"\\.formatted\\((\\w+)\\)", Pattern.DOTALL);

    /** The statements App runs with no prefix: the table name variables are the names themselves. */
    private static List<String> schemaStatements() {
        List<String> statements = new ArrayList<>();
        Matcher m = STATEMENT.matcher(ChartRendering.read(SCHEMA));
        while (m.find()) {
            String table = switch (m.group(2)) {
                case "deliveries" -> "deliveries";
                case "attempts" -> "delivery_attempts";
                case "claims" -> "ip_claims";
                default -> throw new AssertionError("a table DeliverySchema does not name: " + m.group(2));
            };
            statements.add(normalised(m.group(1).replace("%s", table)));
        }
        return statements;
    }

    private static List<String> fileStatements() {
        StringBuilder text = new StringBuilder();
        for (String line : ChartRendering.read(YQL).split("\n")) {
            if (!line.stripLeading().startsWith("--")) {
                text.append(line).append('\n');
            }
        }
        List<String> statements = new ArrayList<>();
        for (String statement : text.toString().split(";")) {
            if (!statement.isBlank()) {
                statements.add(normalised(statement));
            }
        }
        return statements;
    }

    private static String normalised(String statement) {
        return statement
                .replaceAll("\\s+", " ")
                .replace("( ", "(")
                .replace(" )", ")")
                .strip();
    }

    @Test
    void theOperatorsYqlFileCreatesExactlyTheTablesAppCreates() {
        List<String> schema = schemaStatements();

        assertThat(schema)
                .as("CREATE TABLE text blocks found in %s", SCHEMA)
                .hasSize(3)
                .allMatch(s -> s.startsWith("CREATE TABLE IF NOT EXISTS `"));
        assertThat(fileStatements())
                .as("docs/delivery-tables.yql against DeliverySchema (no table prefix)")
                .containsExactlyElementsOf(schema);
    }
}
