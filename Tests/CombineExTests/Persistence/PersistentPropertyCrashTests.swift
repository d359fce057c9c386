import CombineEx
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A process killed while a `PersistentProperty` writes in a loop always leaves a file that
/// decodes to a value it wrote.
///
/// Each case runs the writer in a child process (a Swift Testing exit test: the test binary
/// runs again, executing only the closure) that kills itself with SIGKILL, which no code can
/// catch or finish: the process stops wherever it is. The kill comes either at a chosen step of
/// a chosen write (through the engine's test probe, so every step of a write is checked on
/// every run), or from another thread after a random number of writes and a random delay. The
/// parent then opens the folder with a new engine. Every child is also killed by a watchdog
/// after 60 seconds, so a case cannot hang; the marker file tells a planned kill from it.
@Suite("PersistentProperty crash safety")
struct PersistentPropertyCrashTests {
  /// Entries per written value: about 100 KB of JSON, so that a write takes a while.
  static let ledgerSize = 20_000

  @Test(
    "a kill at each step of a write leaves the previous value or the new one",
    arguments: PersistentFileWritePhase.allCases.indices)
  func killAtEachStep(phaseIndex: Int) async throws {
    let folder = TemporaryFolder("crash-step-\(phaseIndex)")
    defer { folder.remove() }
    let path = folder.url.path
    let killedWrite = Int.random(in: 2...4)
    await #expect(processExitsWith: .signal(SIGKILL)) {
      [path = path as String, phaseIndex = phaseIndex as Int, killedWrite = killedWrite as Int] in
      let phase = PersistentFileWritePhase.allCases[phaseIndex]
      PersistentPropertyCrashTests.runWriter(in: path) { write, reached in
        reached == phase && write == killedWrite
      }
    }
    let marker = try String(
      contentsOf: folder.url.appendingPathComponent("marker"), encoding: .utf8)
    #expect(marker == "write \(killedWrite)")
    let leftovers = folder.entries.filter { $0.hasSuffix(".tmp") }
    let phase = PersistentFileWritePhase.allCases[phaseIndex]
    // Before the rename, the interrupted write left its temporary file: the kill really landed
    // inside the write.
    #expect(leftovers.count == (phase == .renamed ? 0 : 1), "\(folder.entries)")
    let stored = try Self.storedLedger(in: folder)
    let expected = phase == .renamed ? killedWrite : killedWrite - 1
    #expect(stored?.number == expected, "killed at \(phase) of write \(killedWrite)")
    #expect(stored?.isConsistent == true)
  }

  @Test("a kill at a random moment while writing in a loop leaves a value that was written")
  func killAtRandomMoments() async throws {
    for run in 0..<4 {
      let folder = TemporaryFolder("crash-random-\(run)")
      defer { folder.remove() }
      let path = folder.url.path
      let writes = Int.random(in: 1...8)
      let delay = Int.random(in: 0...20_000)
      await #expect(processExitsWith: .signal(SIGKILL)) {
        [path = path as String, writes = writes as Int, delay = delay as Int] in
        PersistentPropertyCrashTests.killAfter(writes: writes, microseconds: delay, in: path)
        PersistentPropertyCrashTests.runWriter(in: path) { _, _ in false }
      }
      #expect(
        FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("marker").path))
      let stored = try Self.storedLedger(in: folder)
      #expect(
        stored.map { $0.number >= writes && $0.isConsistent } == true,
        "run \(run): \(writes) writes, \(delay) µs")
      // And the property starts from it, with no error.
      let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
      let restored = PersistentProperty(
        storageEngine: engine, key: "ledger", defaultValue: Ledger(number: 0, size: 0))
      #expect(restored.value == stored)
      #expect(restored.error.value == nil)
    }
  }

  /// The stored ledger, read by a new engine (as a restarted program would).
  static func storedLedger(in folder: TemporaryFolder) throws -> Ledger? {
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder.url)
    return try engine.retrieve(key: PersistentPropertyKey(key: "ledger"))
  }

  // MARK: The child process

  /// Sets a persistent property to ledgers 1, 2, 3... until the process is killed: by
  /// `shouldKill(write, step)` returning `true` at a step of a write, or by another thread.
  static func runWriter(
    in path: String,
    shouldKill: @escaping @Sendable (Int, PersistentFileWritePhase) -> Bool
  ) -> Never {
    let folder = URL(fileURLWithPath: path)
    PersistentFileWriteProbe.install { phase in
      let write = WriteCounter.current(after: phase)
      if shouldKill(write, phase) { killSelf(markingIn: folder, "write \(write)") }
    }
    startWatchdog()
    let engine = FileBasedPersistentPropertyStorageEngine(rootDirectoryUrl: folder)
    let property = PersistentProperty(
      storageEngine: engine, key: "ledger", defaultValue: Ledger(number: 0, size: 0))
    var number = 0
    while true {
      number += 1
      property.value = Ledger(number: number, size: ledgerSize)
    }
  }

  /// Kills the process from another thread once `writes` writes have finished, `microseconds`
  /// later (by then another write is usually under way). Counting finished writes, not started
  /// ones, keeps the check "a value that was written" meaningful on a loaded machine, where the
  /// first write may not have finished when a kill made soon after it started lands.
  static func killAfter(writes: Int, microseconds: Int, in path: String) {
    let folder = URL(fileURLWithPath: path)
    let thread = Thread {
      while WriteCounter.finished < writes { usleep(200) }
      usleep(UInt32(microseconds))
      killSelf(markingIn: folder, "random")
    }
    thread.start()
  }

  private static func startWatchdog() {
    Thread {
      sleep(60)
      kill(getpid(), SIGKILL)
    }.start()
  }

  private static func killSelf(markingIn folder: URL, _ marker: String) -> Never {
    try? Data(marker.utf8).write(to: folder.appendingPathComponent("marker"))
    kill(getpid(), SIGKILL)
    fatalError("unreachable: SIGKILL stops the process")
  }
}

/// Counts the writes of the child process: a write starts when its temporary file is created
/// and finishes when that file has replaced the destination.
private enum WriteCounter {
  private static let counts = LockedBox((started: 0, finished: 0))

  /// How many writes have finished.
  static var finished: Int { counts.withLock { $0.finished } }

  /// The number of the write in progress, counting the step `phase`.
  static func current(after phase: PersistentFileWritePhase) -> Int {
    counts.withLock {
      if phase == .temporaryFileCreated { $0.started += 1 }
      if phase == .renamed { $0.finished += 1 }
      return $0.started
    }
  }
}
