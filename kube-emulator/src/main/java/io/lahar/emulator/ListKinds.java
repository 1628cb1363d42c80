package io.lahar.emulator;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names a list as a kube-apiserver does. fabric8's store answers every list as {@code kind: List}
 * of {@code apiVersion: v1}; a kube-apiserver says {@code <Kind>List} of the resource's group
 * version, and typed clients decode only that: {@code kubectl describe} reads a CR's events as an
 * {@code EventList} and showed none from a {@code List}. Only the head of the body is rewritten.
 */
final class ListKinds {

    private static final Pattern HEAD =
            Pattern.compile("^\\{\\s*\"apiVersion\"\\s*:\\s*\"v1\"\\s*,\\s*\"kind\"\\s*:\\s*\"List\"");

    private ListKinds() {}

    static MockResponse named(MockResponse response, Optional<ApiResource> resource) {
        if (response.code() != 200 || resource.isEmpty() || response.getWebSocketListener() != null) {
            return response;
        }
        String body = CrudStore.bodyOf(response);
        Matcher head = HEAD.matcher(body);
        if (!head.lookingAt()) {
            return response;
        }
        return response.setBody("{\"apiVersion\":\"" + resource.get().groupVersion() + "\",\"kind\":\""
                + resource.get().kind() + "List\"" + body.substring(head.end()));
    }
}
