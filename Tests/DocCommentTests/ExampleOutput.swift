import Foundation

/// What one doc-comment example prints, and where its checks fall in it.
///
/// Examples run in parallel, so `print` cannot write to standard output: the generated code
/// calls this module's `print` (below), which shadows the standard library's and appends to the
/// output of the example running on the current task (a task-local value, which tasks started
/// by the example inherit).
final class ExampleOutput: @unchecked Sendable {
  // @unchecked Sendable: `text` and `checkpoints` are guarded by `lock`.
  @TaskLocal static var current: ExampleOutput?

  /// The output of the example that a child process runs (everything printed without a
  /// current example, on any thread), which it also writes to standard output.
  static let ofProcess = ExampleOutput()

  private let lock = NSLock()
  private var text = ""
  private var checkpoints: [(number: Int, offset: Int)] = []
  private var waits = true

  /// Whether checks wait for output that comes late (not for an example whose output the
  /// library writes to standard output itself, which this object does not see).
  var waitsForLateOutput: Bool {
    get { lock.withLock { waits } }
    set { lock.withLock { waits = newValue } }
  }

  func write(_ string: String) {
    lock.withLock { text += string }
  }

  /// Marks the place of check `number`: what was printed before it is compared with the
  /// `// Prints` comments up to that check.
  func checkpoint(_ number: Int) {
    lock.withLock { checkpoints.append((number, text.utf8.count)) }
  }

  /// How long a check waits for output that comes after the code has run (from a task the
  /// example started) before it compares.
  static let lateOutputTimeout: Duration = .seconds(60)

  /// Waits until what was printed since the last check is at least as long as `expected` (its
  /// lines joined with ", "), for at most ``lateOutputTimeout``.
  func waitForOutput(as expected: String) async {
    guard !expected.isEmpty, waitsForLateOutput else { return }
    let deadline = ContinuousClock.now + Self.lateOutputTimeout
    while ContinuousClock.now < deadline {
      let printed = lock.withLock {
        String(decoding: text.utf8.dropFirst(checkpoints.last?.offset ?? 0), as: UTF8.self)
      }
      if joinedLines(printed).count >= expected.count { return }
      try? await Task.sleep(for: .milliseconds(5))
    }
  }

  /// The text printed so far, and where each reached check fell in it (offsets in UTF-8).
  var snapshot: (text: String, checkpoints: [(number: Int, offset: Int)]) {
    lock.withLock { (text, checkpoints) }
  }
}

/// The line that separates the checks of an example that runs in a child process (its
/// standard output is read whole by the parent).
let checkpointMarker = "\u{1E}doc-example-checkpoint "
/// The lines around the output of an example run in a child process.
let startMarker = "\u{1E}doc-example-start"
let endMarker = "\u{1E}doc-example-end"

/// Shadows `Swift.print` for the generated examples: writes what `Swift.print` would, to the
/// current example's output, or, in a child process, to standard output (where the library's
/// own writes go too, so that both keep their order).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
  var text = ""
  for (index, item) in items.enumerated() {
    if index > 0 { text += separator }
    Swift.print(item, terminator: "", to: &text)
  }
  text += terminator
  if let output = ExampleOutput.current {
    output.write(text)
  } else {
    Swift.print(text, terminator: "")
    ExampleOutput.ofProcess.write(text)
  }
}

/// Called by the generated code where a `// Prints` comment ends a top-level statement: marks
/// check `number`, once what was printed since the previous check is as long as `expected`
/// (what the comments say), or after ``ExampleOutput/lateOutputTimeout``: a task the example
/// started (or, in a child process, a queue) may still be printing.
func docExampleCheckpoint(_ number: Int, _ expected: String) async {
  let output = ExampleOutput.current ?? ExampleOutput.ofProcess
  await output.waitForOutput(as: expected)
  output.checkpoint(number)
  if ExampleOutput.current == nil { Swift.print(checkpointMarker + "\(number)") }
}

/// Called by the generated code at the end of an example: waits, like a check, for what the
/// comments after the last check say.
func docExampleEnd(_ expected: String) async {
  await (ExampleOutput.current ?? ExampleOutput.ofProcess).waitForOutput(as: expected)
}
