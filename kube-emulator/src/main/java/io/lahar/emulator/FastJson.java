package io.lahar.emulator;

import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import io.fabric8.kubernetes.client.utils.Serialization;

/**
 * Jackson's Blackbird module on fabric8's shared mapper, which the CRUD store and every handler of
 * the API parse and write objects with. fabric8's model classes are beans whose setters and getters
 * plain Jackson calls by reflection, each an uninlined method-handle invocation from call sites that
 * see thousands of them; Blackbird calls them through generated lambdas. The JSON is the same.
 */
final class FastJson {

    private static boolean installed;

    private FastJson() {}

    /** Registers the module once, before the API serves its first request. */
    static synchronized void install() {
        if (!installed) {
            Serialization.jsonMapper().registerModule(new BlackbirdModule());
            installed = true;
        }
    }
}
