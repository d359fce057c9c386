import CombineEx
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A storage engine in memory, which counts its calls and can be told to fail.
final class MemoryStorageEngine: PersistentPropertyStorageEngine, @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`.
  struct StoreFailure: Error, Equatable {}

  private let lock = NSLock()
  private var stored: [PersistentPropertyKey: Data] = [:]
  private var storeCount = 0
  private var retrieveCount = 0
  private var failing = false
  private var log: [Data] = []
  private let jitter: Bool

  /// With `jitter`, each store sleeps for a random 0 to 200 µs before and after it records the
  /// value, which widens the windows in which concurrent stores could overtake each other.
  init(jitter: Bool = false) {
    self.jitter = jitter
  }

  func store(value: some Codable, key: PersistentPropertyKey) throws {
    let data = try JSONEncoder().encode([value])
    if jitter { usleep(UInt32.random(in: 0...200)) }
    try lock.withLock {
      storeCount += 1
      if failing { throw StoreFailure() }
      stored[key] = data
      log.append(data)
    }
    if jitter { usleep(UInt32.random(in: 0...200)) }
  }

  /// Every value stored, in order.
  func storedValues<T: Codable>(_ type: T.Type) -> [T] {
    lock.withLock { log }.compactMap { try? JSONDecoder().decode([T].self, from: $0).first }
  }

  func retrieve<T: Codable>(key: PersistentPropertyKey) throws -> T? {
    let data = lock.withLock { () -> Data? in
      retrieveCount += 1
      return stored[key]
    }
    guard let data else { return nil }
    return try JSONDecoder().decode([T].self, from: data).first
  }

  /// The value stored under `key` (without counting a retrieve).
  func storedValue<T: Codable>(_ type: T.Type, key: String) -> T? {
    guard let data = lock.withLock({ stored[PersistentPropertyKey(key: key)] }) else { return nil }
    return try? JSONDecoder().decode([T].self, from: data).first
  }

  var stores: Int { lock.withLock { storeCount } }
  var retrieves: Int { lock.withLock { retrieveCount } }

  /// Makes every later store throw ``StoreFailure`` (or succeed again).
  func setFailing(_ failing: Bool) { lock.withLock { self.failing = failing } }
}

/// A folder of its own under the temporary directory. Tests remove it with
/// `defer { folder.remove() }`, which also keeps the value alive to the end of the test: Swift
/// may free a value after its last use, and an engine writing to the folder after the removal
/// would create it again, left behind in /tmp. Freeing the value removes the folder too.
final class TemporaryFolder: Sendable {
  let url: URL

  init(_ name: String = #function) {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "CombineExTests-\(safe)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The names of the entries in the folder, sorted.
  var entries: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }

  /// Removes the folder and everything in it.
  func remove() {
    try? FileManager.default.removeItem(at: url)
  }

  deinit {
    remove()
  }
}

/// A `Codable` value whose parts must agree: a torn or mixed file cannot decode to a valid one.
struct Ledger: Codable, Equatable, Sendable {
  var number: Int
  var entries: [Int]

  init(number: Int, size: Int = 64) {
    self.number = number
    entries = Array(repeating: number, count: size)
  }

  /// Whether every entry matches the number.
  var isConsistent: Bool { entries.allSatisfy { $0 == number } }
}
