import BenchmarkKit
import Foundation

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
  import CombineExStore
#endif

// The setup sweep (issue 30): one entry per public publisher type of the package, as the
// conformance registry lists them (Tests/ConformanceTests/Registry*.swift), each subscribed,
// given one value (one per input) and completed or cancelled, over and over. Its key is the
// type's name without `Publishers.` (`s.Map`, `s.Future`, `s.Result.Publisher`): see
// Docs/Performance.md, "The setup sweep". OpenCombine's build has the entries whose type
// OpenCombine has; the others are CombineEx only.
//
// Tests/ConformanceTests/BenchmarkSweepTests.swift reads this file as text: every registry
// type must appear here once, as the first argument of `swept` or `sweptConnectable`, or in
// `sweepExemptions`, with a reason. So a new publisher cannot be left out of the sweep.

/// Every entry of the sweep, in the registry's order.
public func sweepWorkloads() -> [Workload] {
  sweptSources() + sweptOperators() + sweptTimeOperators() + sweptCombineExTypes()
}

/// The types that the sweep cannot subscribe to synchronously, each with the reason.
let sweepExemptions: [SweepExemption] = [
  exempt(
    "Timer.TimerPublisher",
    reason: "fires on a RunLoop in real time: a subscription receives nothing until a tick"),
  exempt(
    "Publishers.Ticker",
    reason: "a scheduler's repeating timer: a subscription receives nothing until a tick"),
  exempt(
    "MarblePublisher",
    reason: "a test tool (CombineExTesting, which links Swift Testing and XCTest) played by a "
      + "TestScheduler; its subscribers are a PassthroughSubject's (s.PassthroughSubject)"),
  exempt(
    "AsyncSequencePublisher",
    reason: "delivers from a task of its own: the value never comes synchronously"),
  exempt(
    "URLSession.DataTaskPublisher", reason: "networking: the value comes from a data task"),
]

// MARK: Sources and subjects

/// A model with a `@Published` property, for `s.Published.Publisher`.
private final class SweepModel: ObservableObject {
  @Published var value = 7
}

private func sweptSources() -> [Workload] {
  let subject = PassthroughSubject<Int, Never>()
  let currentValue = CurrentValueSubject<Int, Never>(7)
  let record = Record<Int, Never>(output: [7], completion: .finished)
  let model = SweepModel()
  let objectWillChange = ObservableObjectPublisher()
  var sources = [
    swept("Just", "Just(i)") { Just($0) },
    swept("Empty", "Empty()") { _ in Empty<Int, Never>() },
    swept("Fail", "Fail(error:)") { _ in Fail<Int, SweepError>(error: SweepError()) },
    swept("Publishers.Sequence", "(i..<i + 1).publisher") { ($0..<$0 &+ 1).publisher },
    swept("AnyPublisher", ".eraseToAnyPublisher()") {
      OneValue<Int, Never>($0).eraseToAnyPublisher()
    },
    swept("PassthroughSubject", "subject, send(i)", { _ in subject }) { $0.send($1) },
    swept("CurrentValueSubject", "CurrentValueSubject: its value") { _ in currentValue },
    swept("Deferred", "Deferred { Just(i) }") { index in Deferred { Just(index) } },
    swept("Future", "Future { $0(.success(i)) }") { index in
      Future<Int, Never> { $0(.success(index)) }
    },
    swept("Record", "Record(output: [7], completion:)") { _ in record },
    swept("Result.Publisher", "Result.success(i).publisher") {
      Result<Int, Never>.success($0).publisher
    },
    swept("Optional.Publisher", "Optional(i).publisher") { Optional($0).publisher },
    swept("Published.Publisher", "$value of an @Published: its value") { _ in model.$value },
    swept(
      "ObservableObjectPublisher", "ObservableObjectPublisher, send()", { _ in objectWillChange }
    ) {
      publisher, _ in publisher.send()
    },
  ]
  #if !BENCH_OPENCOMBINE
    let replay = ReplaySubject<Int, Never>(bufferSize: 1)
    replay.send(7)
    let center = NotificationCenter()
    let name = Notification.Name("sweep")
    sources += [
      swept("ReplaySubject", "ReplaySubject(bufferSize: 1): replay") { _ in replay },
      swept(
        "NotificationCenter.Publisher", "center.publisher(for:), post",
        { _ in
          center.publisher(for: name)
        }
      ) { _, _ in center.post(name: name, object: nil) },
    ]
  #endif
  return sources
}

// MARK: Operators, behind OneValue(i)

private func sweptOperators() -> [Workload] {
  let first: KeyPath<Triple, Int> = \.first
  let encoded = try! JSONEncoder().encode(7)
  var operators = [
    // Transforming
    swept("Publishers.Map", ".map { f }") { OneValue<Int, Never>($0).map { triple($0) } },
    swept("Publishers.TryMap", ".tryMap { f }") { OneValue<Int, Never>($0).tryMap { triple($0) } },
    swept("Publishers.MapKeyPath", ".map(\\.first)") {
      OneValue<Triple, Never>(Triple($0)).map(first)
    },
    swept("Publishers.MapKeyPath2", ".map(\\.first, \\.second)") {
      OneValue<Triple, Never>(Triple($0)).map(\.first, \.second)
    },
    swept("Publishers.MapKeyPath3", ".map(\\.first, \\.second, \\.third)") {
      OneValue<Triple, Never>(Triple($0)).map(\.first, \.second, \.third)
    },
    swept("Publishers.Scan", ".scan(0, +)") { OneValue<Int, Never>($0).scan(0) { $0 &+ $1 } },
    swept("Publishers.TryScan", ".tryScan(0, +)") {
      OneValue<Int, Never>($0).tryScan(0) { $0 &+ $1 }
    },
    swept("Publishers.MapError", ".mapError { $0 }") {
      OneValue<Int, SweepError>($0).mapError { $0 }
    },
    swept("Publishers.SetFailureType", ".setFailureType(to:)") {
      OneValue<Int, Never>($0).setFailureType(to: SweepError.self)
    },
    swept("Publishers.Encode", ".encode(encoder: JSON)") {
      OneValue<Int, Never>($0).encode(encoder: SweepEncoder())
    },
    swept("Publishers.Decode", ".decode(type: Int, decoder: JSON)") { _ in
      OneValue<Data, SweepError>(encoded).decode(type: Int.self, decoder: SweepDecoder())
    },
    // Filtering
    swept("Publishers.Filter", ".filter { p }") { OneValue<Int, Never>($0).filter { $0 >= 0 } },
    swept("Publishers.TryFilter", ".tryFilter { p }") {
      OneValue<Int, Never>($0).tryFilter { $0 >= 0 }
    },
    swept("Publishers.CompactMap", ".compactMap { f }") {
      OneValue<Int, Never>($0).compactMap { Optional(triple($0)) }
    },
    swept("Publishers.TryCompactMap", ".tryCompactMap { f }") {
      OneValue<Int, Never>($0).tryCompactMap { Optional(triple($0)) }
    },
    swept("Publishers.RemoveDuplicates", ".removeDuplicates()") {
      OneValue<Int, Never>($0).removeDuplicates()
    },
    swept("Publishers.TryRemoveDuplicates", ".tryRemoveDuplicates(by: ==)") {
      OneValue<Int, Never>($0).tryRemoveDuplicates { $0 == $1 }
    },
    swept("Publishers.Drop", ".dropFirst() (drops the value)") {
      OneValue<Int, Never>($0).dropFirst()
    },
    swept("Publishers.DropWhile", ".drop(while: p)") {
      OneValue<Int, Never>($0).drop { $0 < 0 }
    },
    swept("Publishers.TryDropWhile", ".tryDrop(while: p)") {
      OneValue<Int, Never>($0).tryDrop { $0 < 0 }
    },
    swept("Publishers.PrefixWhile", ".prefix(while: p)") {
      OneValue<Int, Never>($0).prefix { $0 >= 0 }
    },
    swept("Publishers.TryPrefixWhile", ".tryPrefix(while: p)") {
      OneValue<Int, Never>($0).tryPrefix { $0 >= 0 }
    },
    swept("Publishers.Output", ".output(at: 0)") { OneValue<Int, Never>($0).output(at: 0) },
    swept("Publishers.IgnoreOutput", ".ignoreOutput()") {
      OneValue<Int, Never>($0).ignoreOutput()
    },
    swept("Publishers.ReplaceEmpty", ".replaceEmpty(with: 0)") {
      OneValue<Int, Never>($0).replaceEmpty(with: 0)
    },
    swept("Publishers.ReplaceError", ".replaceError(with: 0)") {
      OneValue<Int, SweepError>($0).replaceError(with: 0)
    },
    // Reducing
    swept("Publishers.Reduce", ".reduce(0, +)") {
      OneValue<Int, Never>($0).reduce(0) { $0 &+ $1 }
    },
    swept("Publishers.TryReduce", ".tryReduce(0, +)") {
      OneValue<Int, Never>($0).tryReduce(0) { $0 &+ $1 }
    },
    swept("Publishers.Collect", ".collect()") { OneValue<Int, Never>($0).collect() },
    swept("Publishers.CollectByCount", ".collect(2)") { OneValue<Int, Never>($0).collect(2) },
    swept("Publishers.Count", ".count()") { OneValue<Int, Never>($0).count() },
    swept("Publishers.Comparison", ".max()") { OneValue<Int, Never>($0).max() },
    swept("Publishers.TryComparison", ".tryMax(by: <)") {
      OneValue<Int, Never>($0).tryMax { $0 < $1 }
    },
    swept("Publishers.Contains", ".contains(i)") { OneValue<Int, Never>($0).contains($0) },
    swept("Publishers.ContainsWhere", ".contains(where: p)") {
      OneValue<Int, Never>($0).contains { $0 >= 0 }
    },
    swept("Publishers.TryContainsWhere", ".tryContains(where: p)") {
      OneValue<Int, Never>($0).tryContains { $0 >= 0 }
    },
    swept("Publishers.AllSatisfy", ".allSatisfy(p)") {
      OneValue<Int, Never>($0).allSatisfy { $0 >= 0 }
    },
    swept("Publishers.TryAllSatisfy", ".tryAllSatisfy(p)") {
      OneValue<Int, Never>($0).tryAllSatisfy { $0 >= 0 }
    },
    swept("Publishers.First", ".first()") { OneValue<Int, Never>($0).first() },
    swept("Publishers.FirstWhere", ".first(where: p)") {
      OneValue<Int, Never>($0).first { $0 >= 0 }
    },
    swept("Publishers.TryFirstWhere", ".tryFirst(where: p)") {
      OneValue<Int, Never>($0).tryFirst { $0 >= 0 }
    },
    swept("Publishers.Last", ".last()") { OneValue<Int, Never>($0).last() },
    swept("Publishers.LastWhere", ".last(where: p)") {
      OneValue<Int, Never>($0).last { $0 >= 0 }
    },
    swept("Publishers.TryLastWhere", ".tryLast(where: p)") {
      OneValue<Int, Never>($0).tryLast { $0 >= 0 }
    },
    // Debugging
    swept("Publishers.HandleEvents", ".handleEvents(receiveOutput:)") {
      OneValue<Int, Never>($0).handleEvents(receiveOutput: { consume($0) })
    },
    swept("Publishers.Print", ".print(to: a discarding stream)") {
      OneValue<Int, Never>($0).print("sweep", to: DiscardingStream())
    },
    swept("Publishers.Breakpoint", ".breakpoint(receiveOutput: false)") {
      OneValue<Int, Never>($0).breakpoint(receiveOutput: { _ in false })
    },
    // Error handling
    swept("Publishers.AssertNoFailure", ".assertNoFailure()") {
      OneValue<Int, SweepError>($0).assertNoFailure()
    },
    swept("Publishers.Catch", ".catch { OneValue }") {
      OneValue<Int, SweepError>($0).catch { _ in OneValue<Int, Never>(0) }
    },
    swept("Publishers.TryCatch", ".tryCatch { OneValue }") {
      OneValue<Int, SweepError>($0).tryCatch { _ in OneValue<Int, SweepError>(0) }
    },
    swept("Publishers.Retry", ".retry(1)") { OneValue<Int, SweepError>($0).retry(1) },
    // Merging, combining and concatenating (one value per input)
    swept("Publishers.Concatenate", ".append(Empty())") {
      OneValue<Int, Never>($0).append(Empty<Int, Never>())
    },
    swept("Publishers.FlatMap", ".flatMap { OneValue($0) }") {
      OneValue<Int, Never>($0).flatMap { OneValue<Int, Never>($0) }
    },
    swept("Publishers.SwitchToLatest", "OneValue(OneValue(i)).switchToLatest()") {
      OneValue<OneValue<Int, Never>, Never>(OneValue($0)).switchToLatest()
    },
    swept("Publishers.Zip", ".zip(OneValue)") { index in
      OneValue<Int, Never>(index).zip(OneValue<Int, Never>(index))
    },
    swept("Publishers.Zip3", ".zip(OneValue x2)") { index in
      OneValue<Int, Never>(index).zip(OneValue<Int, Never>(index), OneValue<Int, Never>(index))
    },
    swept("Publishers.Zip4", ".zip(OneValue x3)") { index in
      OneValue<Int, Never>(index).zip(
        OneValue<Int, Never>(index), OneValue<Int, Never>(index), OneValue<Int, Never>(index))
    },
    swept("Publishers.DropUntilOutput", ".drop(untilOutputFrom: OneValue)") {
      OneValue<Int, Never>($0).drop(untilOutputFrom: OneValue<Int, Never>(0))
    },
    swept("Publishers.PrefixUntilOutput", ".prefix(untilOutputFrom: Empty(false))") {
      OneValue<Int, Never>($0).prefix(
        untilOutputFrom: Empty<Int, Never>(completeImmediately: false))
    },
    swept("Publishers.Buffer", ".buffer(size: 1, .byRequest, .dropNewest)") {
      OneValue<Int, Never>($0).buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest)
    },
    // Sharing
    sweptConnectable("Publishers.MakeConnectable", ".makeConnectable(), connect()") {
      OneValue<Int, Never>($0).makeConnectable()
    },
    swept("Publishers.Autoconnect", ".makeConnectable().autoconnect()") {
      OneValue<Int, Never>($0).makeConnectable().autoconnect()
    },
    sweptConnectable("Publishers.Multicast", ".multicast(subject:), connect()") {
      OneValue<Int, Never>($0).multicast(subject: PassthroughSubject<Int, Never>())
    },
    swept("Publishers.Share", ".share()") { OneValue<Int, Never>($0).share() },
  ]
  #if !BENCH_OPENCOMBINE
    operators += [
      // Two publishers of one type make a `MergeMany` (`merge(with: Self)`): the second is a Just.
      swept("Publishers.Merge", ".merge(with: Just(i))") { index in
        OneValue<Int, Never>(index).merge(with: Just(index))
      },
      swept("Publishers.Merge3", ".merge(with: OneValue x2)") { index in
        let other = OneValue<Int, Never>(index)
        return other.merge(with: other, other)
      },
      swept("Publishers.Merge4", ".merge(with: OneValue x3)") { index in
        let other = OneValue<Int, Never>(index)
        return other.merge(with: other, other, other)
      },
      swept("Publishers.Merge5", ".merge(with: OneValue x4)") { index in
        let other = OneValue<Int, Never>(index)
        return other.merge(with: other, other, other, other)
      },
      swept("Publishers.Merge6", ".merge(with: OneValue x5)") { index in
        let other = OneValue<Int, Never>(index)
        return other.merge(with: other, other, other, other, other)
      },
      swept("Publishers.Merge7", ".merge(with: OneValue x6)") { index in
        let other = OneValue<Int, Never>(index)
        return other.merge(with: other, other, other, other, other, other)
      },
      swept("Publishers.Merge8", ".merge(with: OneValue x7)") { index in
        let other = OneValue<Int, Never>(index)
        return other.merge(with: other, other, other, other, other, other, other)
      },
      swept("Publishers.MergeMany", "MergeMany(OneValue x2)") { index in
        Publishers.MergeMany(OneValue<Int, Never>(index), OneValue<Int, Never>(index))
      },
      swept("Publishers.CombineLatest", ".combineLatest(OneValue)") { index in
        OneValue<Int, Never>(index).combineLatest(OneValue<Int, Never>(index))
      },
      swept("Publishers.CombineLatest3", ".combineLatest(OneValue x2)") { index in
        let other = OneValue<Int, Never>(index)
        return other.combineLatest(other, other)
      },
      swept("Publishers.CombineLatest4", ".combineLatest(OneValue x3)") { index in
        let other = OneValue<Int, Never>(index)
        return other.combineLatest(other, other, other)
      },
    ]
  #endif
  return operators
}

// MARK: Time, on the ImmediateScheduler (or one whose clock stands still, for timers)

private func sweptTimeOperators() -> [Workload] {
  let immediate = ImmediateScheduler.shared
  var operators = [
    swept("Publishers.Debounce", ".debounce(for: 0, scheduler: immediate)") {
      OneValue<Int, Never>($0).debounce(for: .seconds(0), scheduler: immediate)
    },
    swept("Publishers.Delay", ".delay(for: 0, scheduler: immediate)") {
      OneValue<Int, Never>($0).delay(for: .seconds(0), scheduler: immediate)
    },
    swept("Publishers.Throttle", ".throttle(for: 0, immediate, latest: true)") {
      OneValue<Int, Never>($0).throttle(for: .seconds(0), scheduler: immediate, latest: true)
    },
    swept("Publishers.Timeout", ".timeout(100 s, scheduler: still clock)") {
      OneValue<Int, Never>($0).timeout(.seconds(100), scheduler: StillScheduler())
    },
    swept("Publishers.MeasureInterval", ".measureInterval(using: immediate)") {
      OneValue<Int, Never>($0).measureInterval(using: immediate)
    },
    swept("Publishers.ReceiveOn", ".receive(on: immediate)") {
      OneValue<Int, Never>($0).receive(on: immediate)
    },
    swept("Publishers.SubscribeOn", ".subscribe(on: immediate)") {
      OneValue<Int, Never>($0).subscribe(on: immediate)
    },
  ]
  #if !BENCH_OPENCOMBINE
    operators += [
      swept("Publishers.CollectByTime", ".collect(.byTime(still clock, 100 s))") {
        OneValue<Int, Never>($0).collect(.byTime(StillScheduler(), .seconds(100)))
      }
    ]
  #endif
  return operators
}

// MARK: CombineEx's own types

private func sweptCombineExTypes() -> [Workload] {
  #if BENCH_OPENCOMBINE
    return []
  #else
    let mutable = MutableProperty(7)
    let property = Property(mutable)
    let uiProperty = UIProperty.just(7)
    let persistent = PersistentProperty(
      storageEngine: InMemoryStorageEngine(), key: "sweep", defaultValue: 7)
    let lifetime = Lifetime.Token()
    return [
      swept("MutableProperty", "MutableProperty: its value") { _ in mutable },
      swept("Property", "Property(mutable): its value") { _ in property },
      swept("UIProperty", "UIProperty.just(7): its value") { _ in uiProperty },
      swept("PersistentProperty", "PersistentProperty (in memory): its value") { _ in
        persistent
      },
      swept("AnyDeferredPublisher", "AnyDeferredPublisher { OneValue(i) }") { index in
        AnyDeferredPublisher { OneValue<Int, Never>(index) }
      },
      swept("DeferredFuture", "DeferredFuture { $0(.success(i)) }") { index in
        DeferredFuture<Int, Never> { $0(.success(index)) }
      },
      swept("AnyDeferredFuture", "DeferredFuture { ... }.eraseToAnyDeferredFuture()") { index in
        DeferredFuture<Int, Never> { $0(.success(index)) }.eraseToAnyDeferredFuture()
      },
      swept("Effect", "Effect(OneValue(i))") { Effect(OneValue<Int, Never>($0)) },
      swept("Publishers.HandleCleanup", ".handleCleanup { }") {
        OneValue<Int, Never>($0).handleCleanup {}
      },
      swept("Publishers.PrefixDuring", ".prefix(during: a lifetime)") {
        OneValue<Int, Never>($0).prefix(during: lifetime.lifetime)
      },
      swept("Publishers.AttemptMap", ".attemptMap { .success(f($0)) }") {
        OneValue<Int, SweepError>($0).attemptMap { .success(triple($0)) }
      },
      swept("Publishers.PrependDynamic", ".prependDynamic { 0 }") {
        OneValue<Int, Never>($0).prependDynamic { 0 }
      },
      swept("Publishers.PropertyMap", "OneValue([element]).propertyMap { f }") {
        OneValue<[IdentifiedInt], Never>([IdentifiedInt(id: 0, value: $0)])
          .propertyMap { $0.value.value }
      },
      swept("Publishers.Custom", "Publishers.Custom { send i, finish }") { index in
        Publishers.Custom<Int, Never> { handler in
          handler.sendValue(index)
          handler.sendCompletion(.finished)
        }
      },
      swept("DeferredCustom", "DeferredCustom { send i, finish }") { index in
        DeferredCustom<Int, Never> { handler in
          handler.sendValue(index)
          handler.sendCompletion(.finished)
        }
      },
      swept("Publishers.Aggregate", ".combineLatest(OneValue x4) (5 inputs)") { index in
        let other = OneValue<Int, Never>(index)
        return other.combineLatest(other, other, other, other)
      },
    ]
  #endif
}

#if !BENCH_OPENCOMBINE
  /// A storage engine in memory, for `s.PersistentProperty`: the sweep measures the property's
  /// subscription, not a file system.
  private final class InMemoryStorageEngine: PersistentPropertyStorageEngine, @unchecked Sendable {
    // @unchecked Sendable: `values` is guarded by `lock`.
    private let lock = NSLock()
    private var values: [PersistentPropertyKey: Data] = [:]

    func store(value: some Codable, key: PersistentPropertyKey) throws {
      let data = try JSONEncoder().encode([value])
      lock.withLock { values[key] = data }
    }

    func retrieve<T: Codable>(key: PersistentPropertyKey) throws -> T? {
      guard let data = lock.withLock({ values[key] }) else { return nil }
      return try JSONDecoder().decode([T].self, from: data).first
    }
  }
#endif
