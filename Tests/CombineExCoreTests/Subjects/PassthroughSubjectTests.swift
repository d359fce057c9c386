import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("PassthroughSubject")
struct PassthroughSubjectTests {
  @Test("delivers sent values to every subscriber, then the completion")
  func deliversValuesAndCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    let first = subject.record()
    let second = subject.record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(first.values == [1, 2])
    #expect(second.values == [1, 2])
    #expect(first.receivedCompletion == .finished)
    #expect(second.completionCount == 1)
  }

  @Test("drops values for a subscriber without demand and resumes when it requests more")
  func honoursDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record(initialDemand: .max(1))
    subject.send(1)
    subject.send(2)
    recorder.request(.max(2))
    subject.send(3)
    subject.send(4)
    subject.send(5)
    #expect(recorder.values == [1, 3, 4])
  }

  @Test("a subscriber with .max(0) demand receives nothing until it requests")
  func zeroDemandIsLegal() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.record(initialDemand: .max(0))
    subject.send(1)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    subject.send(2)
    #expect(recorder.values == [2])
  }

  @Test("a request of zero stops the program, as in Combine")
  func requestOfZeroTraps() async {
    await #expect(processExitsWith: .failure) {
      let recorder = PassthroughSubject<Int, Never>().record(initialDemand: .none)
      recorder.request(.none)
    }
  }

  @Test("ignores values and completions after the completion")
  func nothingAfterCompletion() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.record()
    subject.send(completion: .failure(TestError(1)))
    subject.send(1)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
    #expect(recorder.completionCount == 1)
  }

  @Test("a subscriber arriving after the completion receives only the completion")
  func lateSubscriberGetsCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    subject.send(completion: .finished)
    let recorder = subject.record()
    #expect(recorder.events == [.subscription, .completion(.finished)])
  }

  @Test("nothing is delivered after cancel, and cancelling twice is harmless")
  func nothingAfterCancel() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { received.append($0) }
    subject.send(1)
    cancellable.cancel()
    cancellable.cancel()
    subject.send(2)
    #expect(received == [1])
  }

  @Test("a re-entrant send is delivered at once, nested inside the current delivery")
  func reentrantSendIsNested() {
    // Apple's Combine delivers a send made from inside a subscriber immediately, so the
    // second subscriber sees the nested value before the outer one.
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let first = subject.sink { value in
      log.append("A\(value)")
      if value == 1 { subject.send(2) }
    }
    let second = subject.sink { log.append("B\($0)") }
    subject.send(1)
    #expect(log == ["A1", "A2", "B2", "B1"])
    withExtendedLifetime((first, second)) {}
  }

  @Test("a subscriber may cancel itself from inside receive")
  func cancelFromInsideReceive() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.sink { value in
      received.append(value)
      cancellable?.cancel()
    }
    subject.send(1)
    subject.send(2)
    #expect(received == [1])
  }

  @Test("a subscriber may subscribe again from inside receive; the new one starts later")
  func subscribeFromInsideReceive() {
    let subject = PassthroughSubject<Int, Never>()
    var late: TestSubscriber<Int, Never>?
    let first = subject.sink { _ in
      if late == nil { late = subject.record() }
    }
    subject.send(1)
    subject.send(2)
    #expect(late?.values == [2])
    withExtendedLifetime(first) {}
  }

  @Test("cancelling releases the subscriber and the subject")
  func cancelReleasesPipeline() {
    weak var weakSubject: PassthroughSubject<Int, Never>?
    weak var weakOwner: TestOwner?
    var cancellable: AnyCancellable?
    do {
      let subject = PassthroughSubject<Int, Never>()
      let owner = TestOwner()
      weakSubject = subject
      weakOwner = owner
      cancellable = subject.map { $0 + 1 }.sink { owner.values.append($0) }
      subject.send(1)
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
    #expect(weakSubject == nil)
  }

  @Test("completion releases the subscriber's closures even while the cancellable is kept")
  func completionReleasesClosures() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.sink { owner.values.append($0) }
    }
    subject.send(completion: .finished)
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("stress: 8 threads sending deliver every value exactly once, serially")
  func stressConcurrentSends() async {
    let subject = PassthroughSubject<Int, Never>()
    let checker = SerialDeliveryChecker()
    let cancellable = subject.sink { checker.receive($0) }
    let threads = 8
    let perThread = 5_000
    await concurrentPerform(threads) { thread in
      for index in 0..<perThread {
        subject.send(thread * perThread + index)
      }
    }
    #expect(checker.overlaps == 0)
    #expect(checker.values.sorted() == Array(0..<(threads * perThread)))
    cancellable.cancel()
  }
}
