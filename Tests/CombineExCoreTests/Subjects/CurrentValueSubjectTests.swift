import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("CurrentValueSubject")
struct CurrentValueSubjectTests {
  @Test("a new subscriber receives the current value, then every value sent")
  func replaysCurrentValue() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = subject.record()
    subject.send(2)
    subject.value = 3
    #expect(recorder.values == [1, 2, 3])
    #expect(subject.value == 3)
  }

  @Test("the current value waits for the subscriber's first demand")
  func currentValueWaitsForDemand() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = subject.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
  }

  @Test("a subscriber without demand gets the latest value on its next request")
  func conflatesWithoutDemand() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = subject.record(initialDemand: .max(1))
    subject.send(2)
    subject.send(3)
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 3])
  }

  @Test("after the completion, sends are ignored and value keeps the last value")
  func ignoresSendsAfterCompletion() {
    let subject = CurrentValueSubject<Int, TestError>(1)
    let recorder = subject.record()
    subject.send(completion: .failure(TestError(1)))
    subject.send(2)
    #expect(subject.value == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
    let late = subject.record()
    #expect(late.events == [.subscription, .completion(.failure(TestError(1)))])
  }

  @Test("after the completion, setting value stores it without sending it, as in Combine")
  func settingValueAfterCompletionStoresIt() {
    let subject = CurrentValueSubject<Int, Never>(1)
    let recorder = subject.record()
    subject.send(completion: .finished)
    subject.value = 42
    #expect(subject.value == 42)
    #expect(recorder.values == [1])
    subject.send(43)
    #expect(subject.value == 42)
  }

  @Test("a request of zero stops the program, as in Combine")
  func requestOfZeroTraps() async {
    await #expect(processExitsWith: .failure) {
      let recorder = CurrentValueSubject<Int, Never>(1).record(initialDemand: .none)
      recorder.request(.none)
    }
  }

  @Test("a re-entrant send is delivered at once, nested, as in Combine")
  func reentrantSendIsNested() {
    let subject = CurrentValueSubject<Int, Never>(0)
    var log: [String] = []
    let first = subject.sink { value in
      log.append("A\(value)")
      if value == 1 { subject.send(2) }
    }
    let second = subject.sink { log.append("B\($0)") }
    subject.send(1)
    #expect(log == ["A0", "B0", "A1", "A2", "B2", "B1"])
    #expect(subject.value == 2)
    withExtendedLifetime((first, second)) {}
  }

  @Test("reading value from inside a subscriber is safe")
  func readValueInsideSubscriber() {
    let subject = CurrentValueSubject<Int, Never>(0)
    var seen: [Int] = []
    let cancellable = subject.sink { _ in seen.append(subject.value) }
    subject.send(5)
    #expect(seen == [0, 5])
    withExtendedLifetime(cancellable) {}
  }

  @Test("stress: concurrent sends deliver every value once, and the last one delivered is value")
  func stressConcurrentSendsKeepOrder() async {
    let subject = CurrentValueSubject<Int, Never>(-1)
    let checker = SerialDeliveryChecker()
    let cancellable = subject.sink { checker.receive($0) }
    await concurrentPerform(8) { thread in
      for index in 0..<2_000 {
        subject.send(thread * 2_000 + index)
      }
    }
    let delivered = checker.values
    #expect(checker.overlaps == 0)
    #expect(delivered.count == 16_001)
    #expect(Set(delivered).count == 16_001)
    #expect(delivered.last == subject.value)
    cancellable.cancel()
  }

  @Test("stress: subscribing while other threads send never loses or duplicates a value")
  func stressSubscribeWhileSending() async {
    let subject = CurrentValueSubject<Int, Never>(0)
    let recorders = LockedBox<[TestSubscriber<Int, Never>]>([])
    await concurrentPerform(8) { thread in
      if thread.isMultiple(of: 2) {
        for value in 1...1_000 { subject.send(thread * 10_000 + value) }
      } else {
        for _ in 0..<50 {
          let recorder = subject.record()
          recorders.withLock { $0.append(recorder) }
        }
      }
    }
    for recorder in recorders.withLock({ $0 }) {
      let values = recorder.values
      #expect(!values.isEmpty)
      #expect(Set(values).count == values.count)
      #expect(values.last == subject.value)
    }
  }

  @Test("a replaced value whose deinit reads the subject's value does not deadlock")
  func replacedValueDeinitReadsValue() {
    final class Reader {
      var onDeinit: () -> Void = {}
      deinit { onDeinit() }
    }
    let subject = CurrentValueSubject<Reader?, Never>(Reader())
    var readInDeinit = false
    subject.value?.onDeinit = { [unowned subject] in
      _ = subject.value
      readInDeinit = true
    }
    subject.send(nil)  // releases the first reader, whose deinit reads `value`
    #expect(readInDeinit)
  }
}
