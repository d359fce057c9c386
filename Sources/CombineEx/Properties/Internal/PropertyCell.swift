import CombineExCore
import Synchronization

/// The value, the `finished` flag and the subscribers of a ``PropertyStorage``: the part a
/// ``PropertyRelay`` feeds on every value.
///
/// A separate object so that the relay can hold it strongly: the relay used to refer to the
/// storage weakly, and a weakly referenced object keeps its reference counts in a side table,
/// where every retain and release takes the slow path (22% of Benchmarks' j5). Nothing refers
/// to a cell weakly. Holding the cell does not keep the property alive: the cell has no
/// subscription to its sources and owns no relay. Its core keeps the ``PropertyStorage`` (the
/// core's `owner`) while subscribers are attached, as a subject's core keeps its subject: the
/// storage then lives as long as its subscribers, and the cell as long as the storage or the
/// relay.
@usableFromInline
final class PropertyCell<Output> {
  @usableFromInline
  let core: SubjectCore<Output, Never>

  /// The value as of the last committed set. Guarded by `core.lock`, or, for a value held in
  /// one word, written by a fused map's relay under its source's token
  /// (``writesAreSerializedWithAttaches``). (Unchecked exclusivity, as `MutableProperty`'s: the
  /// lock or the token serializes every access.)
  @usableFromInline
  @exclusivity(unchecked)
  var currentValue: Output

  /// Whether the followed publisher finished. Guarded by `core.lock`.
  @usableFromInline
  @exclusivity(unchecked)
  var isFinished = false

  /// Whether a subscriber ever attached. Set once, under `core.lock`, by the first attach
  /// (``markObserved()``), never cleared. Until then a value is only stored, under the lock:
  /// the core has nobody to deliver it to, and the first attach brings the core's replayed
  /// value up to date before the core hands it out. (A derived property that is only read,
  /// never observed, then costs one lock round trip per change, not the core's delivery token
  /// too: two compare-and-swaps and the event's handling, about 60 instructions of
  /// Benchmarks' j5.)
  @usableFromInline
  let isObserved = Atomic<Bool>(false)

  /// For a value held in one word (``holdsValueInWord``), `currentValue`'s bits: stored, with
  /// releasing order, after each write of `currentValue`, so that ``value`` reads it with one
  /// atomic load instead of a lock round trip (two atomic read-modify-writes per read;
  /// Benchmarks' j5). Unused (zero) for other values.
  @usableFromInline
  let valueWord = Atomic<UInt>(0)

  /// Whether every write of the value, the completion and every attach to the core run on a
  /// thread that holds one and the same delivery token: set once, by a fused `map`
  /// (``serializeWritesWithAttaches()``), whose relay writes in its source core's deliveries
  /// and whose subscribers attach to this core only from inside them (the others attach to the
  /// source's core; ``PropertySourceAttachment``). A value held in one word is then stored
  /// without the lock while nobody observes the cell (Benchmarks' j5: the lock's two atomic
  /// read-modify-writes per set): the token orders the store with the first attach, which
  /// hands the core the value to replay, and with the completion, and readers on other threads
  /// read ``valueWord``. (`currentValue` is read without the token only under the lock, once
  /// the cell is finished, after the last store.)
  @usableFromInline
  let writesAreSerializedWithAttaches = Atomic<Bool>(false)

  /// Whether the value is a trivial type (no references, no deinit) that fits one word, such as
  /// `Int`, `Double` or `Bool`: it is then mirrored in ``valueWord``, whose load is the whole
  /// value. (A larger value would need several loads, torn by a concurrent write; one with
  /// references could be released by a write while a reader copies it: those stay under the
  /// lock.) A constant in specialized code.
  @inlinable
  static var holdsValueInWord: Bool {
    _isPOD(Output.self) && MemoryLayout<Output>.size <= MemoryLayout<UInt>.size
  }

  /// The value as of the last committed set, from any thread.
  @inlinable
  var value: Output {
    if Self.holdsValueInWord {
      let bits = valueWord.load(ordering: .acquiring)
      return withUnsafeBytes(of: bits) { $0.load(as: Output.self) }
    }
    return core.lock.withLock { currentValue }
  }

  /// Mirrors `value`, just written to `currentValue` (under `core.lock`), in ``valueWord``.
  @inlinable
  func mirror(_ value: Output) {
    guard Self.holdsValueInWord else { return }
    var bits: UInt = 0
    withUnsafeMutableBytes(of: &bits) {
      _ = $0.baseAddress.unsafelyUnwrapped.initializeMemory(as: Output.self, to: value)
    }
    valueWord.store(bits, ordering: .releasing)
  }

  @inlinable
  init(_ initialValue: Output) {
    currentValue = initialValue
    core = SubjectCore(.property, currentValue: initialValue)
    // Nothing to replay until the first attach (``markObserved()``): the values stored until
    // then bypass the core, which would otherwise keep the first one alive.
    core.replayValue = nil
    mirror(initialValue)
  }

  /// Stores `value` and publishes it (ignored once finished).
  @inlinable
  func send(_ value: Output) {
    if Self.holdsValueInWord, !isObserved.load(ordering: .acquiring),
      writesAreSerializedWithAttaches.load(ordering: .relaxed)
    {
      // Serialized with the attaches and the completion by the source's token (see
      // `writesAreSerializedWithAttaches`); a trivial value needs no release.
      if !isFinished {
        currentValue = value
        mirror(value)
      }
      return
    }
    sendUnderLock(value)
  }

  /// ``send(_:)`` for the other cases: under the lock, and through the core once observed.
  /// (Out of line, so that the store without the lock is a small function with no stack
  /// frame to speak of: Benchmarks' j5.)
  @inlinable
  @inline(never)
  func sendUnderLock(_ value: Output) {
    var replaced = value  // released after the lock (its deinit may read `value`)
    if !isObserved.load(ordering: .acquiring) {
      // Nobody to deliver to: store the value only, unless the first subscriber attached
      // meanwhile (checked again under the lock, where the attach sets it).
      let stored = core.lock.withLock { () -> Bool in
        guard !isObserved.load(ordering: .relaxed) else { return false }
        if !isFinished {
          swap(&currentValue, &replaced)
          mirror(currentValue)
        }
        return true
      }
      if stored { return }
    }
    core.perform(.value(value)) { _ in
      guard !isFinished else { return false }
      swap(&currentValue, &replaced)
      mirror(currentValue)
      return true
    }
  }

  /// Declares that every write, the completion and every attach run on a thread holding the
  /// same delivery token (a fused `map`: ``writesAreSerializedWithAttaches``). Called by `map`
  /// before it returns the property, so before any subscriber can attach.
  @inlinable
  func serializeWritesWithAttaches() {
    writesAreSerializedWithAttaches.store(true, ordering: .relaxed)
  }

  /// Called by an attach with `core.lock` and the core's delivery token held (in the commit of
  /// the attach event): the first one marks the cell observed, from then on every value goes
  /// through the core, and gives the core the value stored meanwhile to replay.
  @inlinable
  func markObserved() {
    guard !isObserved.load(ordering: .relaxed) else { return }
    core.replayValue = currentValue
    isObserved.store(true, ordering: .releasing)
  }

  /// Finishes every subscriber; the value stays (in the cell, for reads and for the subscribers
  /// that come later, which receive it from a `Just`).
  ///
  /// The core forgets the value it would replay: nothing attaches to it once the cell is
  /// finished, and a `sink`'s `AnyCancellable` holds the core's subscription (and so the core)
  /// after the completion, which would keep the last value alive after the property and its
  /// storage are gone. (Written with the token held, or taken by this event, as the core asks.
  /// A completion queued behind values that a re-entrant call committed before it is handled
  /// after them, and they store their value again: then the core keeps the last one.)
  @inlinable
  func finish() {
    core.perform(.completion(.finished)) { _ in
      guard !isFinished else { return false }
      isFinished = true
      core.replayValue = nil
      return true
    }
  }
}

extension PropertyCell: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: `currentValue` and `isFinished` are guarded by `core.lock` (or by
  // the source's token, `writesAreSerializedWithAttaches`), `valueWord` is atomic, and delivery
  // is serialized by `core`'s token.
}
