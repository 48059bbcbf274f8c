package dev.egress.ydb.coordination.testing;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints every skipped or aborted test with its reason on the build's console, so that a CI log says which tests
 * did not run and why (no Docker, no root, no browser), not only a count. Registered through
 * {@code META-INF/services} in this test-jar, which every module's tests have on their classpath.
 */
public final class SkipReport implements TestExecutionListener {

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        print(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            print(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
        }
    }

    private static void print(TestIdentifier test, String reason) {
        System.out.printf("[SKIPPED] %s: %s%n", test.getLegacyReportingName(), reason);
        System.out.flush();
    }
}
