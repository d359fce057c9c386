// The examples of README.md and Docs/*.md are generated into this target by the DocSnippets
// plugin; a block marked ```swift run is also run as a test.
