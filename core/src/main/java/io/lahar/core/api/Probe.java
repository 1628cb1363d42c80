package io.lahar.core.api;

import java.util.List;

/** Readiness probes of a dependency: HTTP GETs, TCP connects, or task phases of the target job. */
public record Probe(List<HttpGet> httpGetList, List<TcpSocket> tcpSocketList, List<TaskStatus> taskStatusList) {

    public record HttpGet(String taskName, String path, Integer port, HttpHeader httpHeader) {}

    public record HttpHeader(String name, String value) {}

    public record TcpSocket(String taskName, Integer port) {}

    public record TaskStatus(String taskName, String phase) {}
}
