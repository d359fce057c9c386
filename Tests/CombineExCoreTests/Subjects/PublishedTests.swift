import CombineExCore
import CombineExTesting
import Foundation
import Testing

/// A class with a `@Published` property, for the `Published` tests.
private final class Thermometer: @unchecked Sendable {
  @Published var degrees: Int
  init(degrees: Int = 0) { self.degrees = degrees }
}

/// A class whose property is fed by `assign(to:)`.
private final class Mirroring: ObservableObject, @unchecked Sendable {
  @Published var value = 0
  init(_ source: some Publisher<Int, Never>) {
    source.assign(to: &$value)
  }
}

@Suite("Published")
struct PublishedTests {
  @Test("$property delivers the current value, then every change")
  func currentValueThenChanges() {
    let thermometer = Thermometer(degrees: 20)
    let recorder = thermometer.$degrees.record()
    thermometer.degrees = 21
    thermometer.degrees = 22
    #expect(recorder.values == [20, 21, 22])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("a subscriber receives the new value before the property holds it (willSet)")
  func emitsInWillSet() {
    let thermometer = Thermometer(degrees: 1)
    var seen: [(emitted: Int, stored: Int)] = []
    let cancellable = thermometer.$degrees.dropFirstForTest().sink { value in
      seen.append((value, thermometer.degrees))
    }
    thermometer.degrees = 2
    #expect(seen.map(\.emitted) == [2])
    #expect(seen.map(\.stored) == [1])
    #expect(thermometer.degrees == 2)
    _ = cancellable
  }

  @Test("every subscriber of the property receives each change")
  func severalSubscribers() {
    let thermometer = Thermometer()
    let first = thermometer.$degrees.record()
    thermometer.degrees = 1
    let second = thermometer.$degrees.record()
    thermometer.degrees = 2
    #expect(first.values == [0, 1, 2])
    #expect(second.values == [1, 2])
  }

  @Test("honours demand: the latest value waits for the next request")
  func honoursDemand() {
    let thermometer = Thermometer(degrees: 1)
    let recorder = thermometer.$degrees.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    thermometer.degrees = 2
    thermometer.degrees = 3
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 3])
  }

  @Test("writing the property from inside its subscriber: delivered nested, last write stays")
  func reentrantWrite() {
    let thermometer = Thermometer(degrees: 0)
    var received: [Int] = []
    let cancellable = thermometer.$degrees.sink { value in
      received.append(value)
      if value == 1 { thermometer.degrees = 2 }
    }
    thermometer.degrees = 1
    #expect(received == [0, 1, 2])
    #expect(thermometer.degrees == 2)
    #expect(thermometer.$degrees.record().values == [2])
    _ = cancellable
  }

  @Test("cancel stops delivery and releases the subscriber")
  func cancelReleases() {
    let thermometer = Thermometer()
    weak var weakOwner: TestOwner?
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = thermometer.$degrees.sink { owner.values.append($0) }
    }
    thermometer.degrees = 1
    #expect(weakOwner?.values == [0, 1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
    thermometer.degrees = 2
  }

  @Test("a subscription to $property does not keep the owner alive")
  func subscriptionDoesNotRetainOwner() {
    weak var weakThermometer: Thermometer?
    var recorder: TestSubscriber<Int, Never>?
    do {
      let thermometer = Thermometer(degrees: 5)
      weakThermometer = thermometer
      recorder = thermometer.$degrees.record()
    }
    #expect(weakThermometer == nil)
    #expect(recorder?.values == [5])
  }

  @Test("init(initialValue:) is the same as init(wrappedValue:)")
  func initialValue() {
    let published = Published(initialValue: 3)
    #expect(published.projectedValue.record().values == [3])
  }

  @Test("assign(to:) writes every value to the property")
  func assignWritesValues() {
    let source = PassthroughSubject<Int, Never>()
    let mirroring = Mirroring(source)
    let recorder = mirroring.$value.record()
    source.send(1)
    source.send(2)
    #expect(mirroring.value == 2)
    #expect(recorder.values == [0, 1, 2])
  }

  @Test("assign(to:) goes through objectWillChange like any other write")
  func assignAnnouncesChanges() {
    let source = PassthroughSubject<Int, Never>()
    let mirroring = Mirroring(source)
    var announcements = 0
    let cancellable = mirroring.objectWillChange.sink { announcements += 1 }
    source.send(1)
    source.send(2)
    #expect(announcements == 2)
    _ = cancellable
  }

  @Test("assign(to:) keeps the last value when the upstream finishes")
  func assignUpstreamFinishes() {
    let mirroring = Mirroring([1, 2, 3].publisher)
    #expect(mirroring.value == 3)
  }

  @Test("assign(to:) lives as long as the owner: no retain, cancelled when it goes away")
  func assignReleasedWithOwner() {
    let source = PassthroughSubject<Int, Never>()
    var cancelled = false
    weak var weakMirroring: Mirroring?
    do {
      let mirroring = Mirroring(source.handleCancelForTest { cancelled = true })
      weakMirroring = mirroring
      source.send(1)
      #expect(mirroring.value == 1)
      #expect(!cancelled)
    }
    #expect(weakMirroring == nil)
    #expect(cancelled)
    source.send(2)
  }

  @Test("stress: concurrent writes and subscriptions deliver serially and announce every write")
  func stressConcurrentWrites() async {
    let thermometer = Mirroring([0].publisher)
    let announcements = LockedBox(0)
    let announcing = thermometer.objectWillChange.sink { announcements.withLock { $0 += 1 } }
    let checkers = LockedBox<[SerialDeliveryChecker]>([])
    let cancellables = LockedBox<[AnyCancellable]>([])
    await concurrentPerform(8) { thread in
      let checker = SerialDeliveryChecker()
      let cancellable = thermometer.$value.sink { checker.receive($0) }
      checkers.withLock { $0.append(checker) }
      cancellables.withLock { $0.append(cancellable) }
      for step in 0..<200 {
        thermometer.value = thread * 1_000 + step
        _ = thermometer.value
      }
    }
    #expect(announcements.withLock { $0 } == 8 * 200)
    for checker in checkers.withLock({ $0 }) {
      #expect(checker.overlaps == 0)
      #expect(!checker.values.isEmpty)
    }
    let final = thermometer.value
    #expect(thermometer.$value.record().values.count == 1)
    #expect((0..<8).contains(final / 1_000))
    _ = announcing
  }

  @Test("its subscriptions describe themselves as Combine's do: PublishedSubject")
  func subscriptionDescription() {
    let thermometer = Thermometer()
    var description: String?
    thermometer.$degrees.subscribe(
      AnySubscriber(receiveSubscription: { description = "\($0)" }))
    #expect(description == "PublishedSubject")
  }
}

extension Publisher {
  /// Skips the first value (the current value a `$property` subscription starts with), until
  /// the dropFirst operator exists in the core.
  fileprivate func dropFirstForTest() -> AnyPublisher<Output, Failure> {
    var isFirst = true
    return compactMap { value -> Output? in
      defer { isFirst = false }
      return isFirst ? nil : value
    }
    .eraseToAnyPublisher()
  }
}
