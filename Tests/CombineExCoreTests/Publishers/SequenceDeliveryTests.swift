import CombineExCore
import Testing

/// The sequence subscription's delivery loop: with unlimited demand it delivers the rest in a
/// loop that checks only for a cancel; with bounded demand it counts, pauses and resumes.
@Suite("Publishers.Sequence delivery")
struct SequenceDeliveryTests {
  @Test("a cancel from inside a Sink's receiveValue stops the unlimited delivery at once")
  func cancelInsideSinkStopsAtOnce() {
    let holder = SinkHolder()
    var pulled: [Int] = []
    var values: [Int] = []
    var completions = 0
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in completions += 1 },
      receiveValue: { value in
        values.append(value)
        if value == 3 { holder.sink?.cancel() }
      })
    holder.sink = sink
    (0..<10).lazy.map { index in
      pulled.append(index)
      return index
    }.publisher.subscribe(sink)
    #expect(values == [0, 1, 2, 3])
    // The element after the one being delivered is read ahead; no other.
    #expect(pulled == [0, 1, 2, 3, 4])
    #expect(completions == 0)
  }

  @Test("a cancel from inside receive(_:) under unlimited demand delivers nothing more")
  func cancelInsideReceiveUnderUnlimitedDemand() {
    var subscription: (any Subscription)?
    var events: [String] = []
    (0..<10).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          $0.request(.unlimited)
        },
        receiveValue: { value in
          events.append("\(value)")
          if value == 3 { subscription?.cancel() }
          return .none
        },
        receiveCompletion: { _ in events.append("finished") }))
    #expect(events == ["0", "1", "2", "3"])
  }

  @Test("a cancel from inside receive(_:) of the last element leaves out the completion")
  func cancelInsideLastElementLeavesOutCompletion() {
    var subscription: (any Subscription)?
    var events: [String] = []
    (0..<3).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          $0.request(.unlimited)
        },
        receiveValue: { value in
          events.append("\(value)")
          if value == 2 { subscription?.cancel() }
          return .none
        },
        receiveCompletion: { _ in events.append("finished") }))
    #expect(events == ["0", "1", "2"])
  }

  @Test("demand returned from receive(_:) turns a bounded delivery into an unlimited one")
  func demandFromReceiveSwitchesToUnlimited() {
    var events: [String] = []
    (0..<6).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { $0.request(.max(1)) },
        receiveValue: { value in
          events.append("\(value)")
          return value == 1 ? .unlimited : value == 0 ? .max(1) : .none
        },
        receiveCompletion: { _ in events.append("finished") }))
    #expect(events == ["0", "1", "2", "3", "4", "5", "finished"])
  }

  @Test("requests made inside receive(_:) under bounded demand deliver in order, iteratively")
  func reentrantRequestsUnderBoundedDemand() {
    let subscriber = ReentrantRequester<Int, Never>(firstRequests: [.max(2)])
    (0..<5).publisher.subscribe(subscriber)
    #expect(subscriber.values == [0, 1, 2, 3, 4])
    #expect(subscriber.deepest == 1)
    #expect(subscriber.completions == 1)
  }

  @Test("a re-entrant unlimited request under bounded demand delivers the rest in one loop")
  func reentrantUnlimitedRequestUnderBoundedDemand() {
    var subscription: (any Subscription)?
    var depth = 0
    var deepest = 0
    var events: [String] = []
    (0..<5).publisher.subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: {
          subscription = $0
          $0.request(.max(1))
        },
        receiveValue: { value in
          depth += 1
          deepest = max(deepest, depth)
          events.append("\(value)")
          if value == 0 { subscription?.request(.unlimited) }
          depth -= 1
          return .none
        },
        receiveCompletion: { _ in events.append("finished") }))
    #expect(events == ["0", "1", "2", "3", "4", "finished"])
    #expect(deepest == 1)
  }

  @Test("bounded demand pauses the delivery, and a later request resumes it")
  func boundedDemandPausesAndResumes() {
    let subscriber = KeepingSubscriber<Int>(initialDemand: .max(2))
    (0..<4).publisher.subscribe(subscriber)
    #expect(subscriber.log == ["0", "1"])
    subscriber.request(.max(1))
    #expect(subscriber.log == ["0", "1", "2"])
    subscriber.request(.max(5))
    #expect(subscriber.log == ["0", "1", "2", "3", "finished"])
  }

  @Test("the subscription releases the elements at the end, even while it is still referenced")
  func releasesElementsAtTheEnd() {
    let counter = InstanceCounter()
    let finished = KeepingSubscriber<Counted>(initialDemand: .unlimited)
    let cancelled = KeepingSubscriber<Counted>(initialDemand: .max(1))
    do {
      let values = (0..<4).map { counter.make($0) }
      values.publisher.subscribe(finished)
      values.publisher.subscribe(cancelled)
    }
    #expect(finished.log.last == "finished")
    #expect(counter.alive == 4)
    cancelled.cancel()
    #expect(counter.alive == 0)
  }

  /// A subscriber about to receive a sequence of tracked values, and what it saw when its
  /// cancel returned.
  struct Round: Sendable {
    let subscriber: KeepingSubscriber<Counted>
    let counter: InstanceCounter
    let seenAtCancel = LockedBox(-1)
    static let count = 64
  }

  @Test("stress: a cancel racing the unlimited delivery stops it and releases the elements")
  func stressCancelRacingUnlimitedDelivery() async {
    let result = await raceTwoThreads(
      rounds: 4_000,
      prepare: {
        let counter = InstanceCounter()
        let subscriber = KeepingSubscriber<Counted>(initialDemand: .none)
        (0..<Round.count).map { counter.make($0) }.publisher.subscribe(subscriber)
        return Round(subscriber: subscriber, counter: counter)
      },
      first: { $0.subscriber.request(.unlimited) },
      second: { round in
        round.subscriber.cancel()
        let seen = round.subscriber.log.count
        round.seenAtCancel.withLock { $0 = seen }
      },
      settle: { round in
        let log = round.subscriber.log
        let seen = round.seenAtCancel.withLock { $0 }
        if round.counter.alive != 0 { return "\(round.counter.alive) elements kept" }
        if log.last == "finished" {
          return log.count == Round.count + 1 ? nil : "finished after \(log.count - 1) values"
        }
        // The value being delivered when the cancel returned may still arrive; no other.
        return log.count <= seen + 1 ? nil : "\(log.count - seen) values after the cancel"
      })
    #expect(result.failures.isEmpty && !result.timedOut, "\(result.summary)")
  }
}

/// Lets a sink's closure reach the sink, to cancel it from inside a delivery.
private final class SinkHolder {
  var sink: Subscribers.Sink<Int, Never>?
}
