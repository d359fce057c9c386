import CombineEx
import CombineExTesting
import Foundation
import Testing

/// Checks for what the generic harness cannot drive, and for rule 4 on subjects (re-entrant
/// send, subscribe and cancel from inside a delivery), which needs several subscribers.
@Suite("tailored conformance checks")
struct TailoredTests {
  @Test("Timer.TimerPublisher: subscribers attach before connect, and cancel stops everything")
  func timerPublisherConnectsAndCancels() {
    let timer = Timer.publish(every: 3_600, on: .current, in: .common)
    weak var weakRecorder: TestSubscriber<Date, Never>?
    do {
      let recorder = timer.record()
      weakRecorder = recorder
      let connection = timer.connect()
      #expect(recorder.isSubscribed)
      recorder.cancel()
      connection.cancel()
      connection.cancel()  // A second cancel does nothing.
      #expect(recorder.events.count == 1)  // Only the subscription.
    }
    #expect(weakRecorder == nil)
    // Autoconnect: the last subscriber leaving disconnects, and a new one connects again.
    let auto = timer.autoconnect().record()
    #expect(auto.isSubscribed)
    auto.cancel()
    #expect(auto.values.isEmpty && auto.receivedCompletion == nil)
  }

  @Test("a subject delivers a send made inside a delivery at once, nested, in Combine's order")
  func subjectNestedSend() {
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let first = subject.sink { value in
      log.append("first \(value)")
      if value == 1 { subject.send(2) }
    }
    let second = subject.sink { log.append("second \($0)") }
    subject.send(1)
    #expect(log == ["first 1", "first 2", "second 2", "second 1"])
    first.cancel()
    second.cancel()
  }

  @Test("a subscriber attached inside a delivery gets the later values, not the current one")
  func subjectSubscribeInsideDelivery() {
    let subject = PassthroughSubject<Int, Never>()
    var late: [TestSubscriber<Int, Never>] = []
    let first = subject.sink { value in
      if value == 1 { late.append(subject.record()) }
    }
    subject.send(1)
    subject.send(2)
    #expect(late.count == 1)
    #expect(late.first?.values == [2])
    first.cancel()
    late.first?.cancel()
  }

  @Test("a subscriber cancelled by another inside a delivery receives nothing more")
  func subjectCancelAnotherInsideDelivery() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let victim = TestSubscriber<Int, Never>()
    let killer = subject.sink { value in
      if value == 1 { victim.cancel() }
    }
    subject.subscribe(victim)
    subject.send(1)
    subject.send(2)
    #expect(victim.values == [0])
    killer.cancel()
  }

  @Test("a subscriber that cancels itself inside its delivery receives nothing more")
  func subjectCancelSelfInsideDelivery() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.sink { value in
      received.append(value)
      cancellable?.cancel()
      subject.send(value + 10)  // Nested, after the cancel: not delivered to it.
    }
    let bystander = subject.record()
    subject.send(1)
    subject.send(2)
    #expect(received == [1])
    #expect(bystander.values == [11, 1, 2])
    bystander.cancel()
    _ = cancellable
  }

  @Test("a subscriber completing the subject inside a delivery ends every subscriber once")
  func subjectCompleteInsideDelivery() {
    let subject = PassthroughSubject<Int, Never>()
    let completer = subject.sink { _ in subject.send(completion: .finished) }
    let other = subject.record()
    subject.send(1)
    subject.send(2)
    #expect(other.events.count == 2)  // The subscription, then the completion (nested).
    #expect(other.values.isEmpty || other.values == [1])
    #expect(other.completionCount == 1)
    completer.cancel()
  }

  @Test(
    "MutableProperty: a value set inside a delivery comes after it, in the same order for everyone"
  )
  func mutablePropertyQueuedSet() {
    let property = MutableProperty(0)
    var log: [String] = []
    let first = property.sink { value in
      log.append("first \(value)")
      if value == 1 { property.value = 2 }
    }
    let second = property.sink { log.append("second \($0)") }
    log.removeAll()
    property.value = 1
    #expect(log == ["first 1", "second 1", "first 2", "second 2"])
    first.cancel()
    second.cancel()
  }

  @Test("stress: Future resolved while 8 threads subscribe and cancel gives each one value, once")
  func stressFutureSubscribersRacingResolution() async {
    for round in 0..<20 {
      var fulfil: Future<Int, Never>.Promise?
      let future = Future<Int, Never> { fulfil = $0 }
      let promise = fulfil!
      let recorders = UncheckedSendableBox(
        (0..<8).map { _ in (0..<6).map { _ in StressRecorder<Int, Never>() } })
      await onThreads(8) { thread in
        for (index, recorder) in recorders.value[thread].enumerated() {
          future.subscribe(recorder)
          if index == 3 { recorder.cancel() }
          if thread == round % 8, index == 2 { promise(.success(round)) }
        }
      }
      promise(.success(-1))  // A second fulfilment is ignored.
      for (thread, row) in recorders.value.enumerated() {
        for (index, recorder) in row.enumerated() {
          #expect(recorder.overlappingDeliveries == 0)
          #expect(recorder.eventsAfterCancel <= 1)
          if index != 3 {
            #expect(recorder.values == [round], "thread \(thread), subscriber \(index)")
            #expect(recorder.completionCount == 1)
          } else {
            #expect(recorder.values.count <= 1 && recorder.values.allSatisfy { $0 == round })
          }
        }
      }
    }
  }

  @Test("AsyncSequencePublisher honours demand, finishes, and cancels its iteration on cancel")
  func asyncSequencePublisherHonoursDemandAndCancel() async {
    let finite = AsyncStream<Int> { continuation in
      for value in 1...5 { continuation.yield(value) }
      continuation.finish()
    }
    let recorder = finite.publisher.record(initialDemand: .max(2))
    #expect(await recorder.values(count: 2) == [1, 2])
    recorder.request(.unlimited)
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [1, 2, 3, 4, 5])
    #expect(recorder.completionCount == 1)

    // Cancel reaches the iteration: the sequence is told it terminated.
    let (terminated, signal) = AsyncStream<Void>.makeStream()
    let endless = AsyncStream<Int> { continuation in
      continuation.onTermination = { _ in signal.yield() }
      continuation.yield(1)
    }
    let cancelled = endless.publisher.record()
    #expect(await cancelled.values(count: 1) == [1])
    cancelled.cancel()
    var iterator = terminated.makeAsyncIterator()
    #expect(await iterator.next() != nil)
    #expect(cancelled.values == [1] && cancelled.receivedCompletion == nil)
  }
}
