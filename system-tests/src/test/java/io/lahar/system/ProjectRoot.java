package io.lahar.system;

import java.nio.file.Path;

/** The checkout the system tests run in: Maven passes it as {@code lahar.project.root}, else the module's parent. */
final class ProjectRoot {

    static final Path DIR = Path.of(System.getProperty("lahar.project.root", ".."))
            .toAbsolutePath()
            .normalize();

    private ProjectRoot() {}
}
