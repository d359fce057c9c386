import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("AsyncPublisher (publisher.values)")
struct AsyncPublisherTests {
  @Test("iterates every value, then ends when the publisher finishes")
  func iteratesThenEnds() async {
    var received: [Int] = []
    for await value in [1, 2, 3].publisher.values {
      received.append(value)
    }
    #expect(received == [1, 2, 3])
  }

  @Test("an empty publisher ends the iteration at once")
  func emptyEnds() async {
    var iterator = Empty<Int, Never>().values.makeAsyncIterator()
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
  }

  @Test("a completion that arrives while nobody waits ends the next call")
  func completionKeptForNextCall() async {
    let subject = PassthroughSubject<Int, Never>()
    var iterator = subject.values.makeAsyncIterator()
    subject.send(completion: .finished)
    #expect(await iterator.next() == nil)
  }

  @Test("making the iterator subscribes; each next() requests exactly one value")
  func demandsOneValueAtATime() async {
    let requests = LockedBox<[Subscribers.Demand]>([])
    let publisher = [1, 2, 3].publisher.handleEvents(receiveRequest: { demand in
      requests.withLock { $0.append(demand) }
    })
    var iterator = publisher.values.makeAsyncIterator()
    #expect(requests.withLock { $0 } == [])
    #expect(await iterator.next() == 1)
    #expect(requests.withLock { $0 } == [.max(1)])
    #expect(await iterator.next() == 2)
    #expect(requests.withLock { $0 } == [.max(1), .max(1)])
  }

  @Test("values sent while no next() call waits are dropped, as beyond demand")
  func unrequestedValuesAreDropped() async {
    let requested = Signal()
    let subject = PassthroughSubject<Int, Never>()
    let publisher = subject.handleEvents(receiveRequest: { _ in requested.fire() })
    let iterator = publisher.values.makeAsyncIterator()
    subject.send(1)  // Nobody waits: there is no demand.
    let next = Task {
      var iterator = iterator
      return await iterator.next()
    }
    await requested.wait()
    // `receiveRequest` runs just before the request reaches the subject, so 2 is sent until
    // the iterator has it; a 1 kept from before would come out first.
    let sender = Task.detached {
      while !Task.isCancelled {
        subject.send(2)
        await Task.yield()
      }
    }
    let value = await next.value
    sender.cancel()
    #expect(value == 2)
  }

  @Test("cancelling the task awaiting next() cancels the upstream and next() returns nil")
  func taskCancellationCancelsUpstream() async {
    let requested = Signal()
    let cancelled = Signal()
    let subject = PassthroughSubject<Int, Never>()
    let publisher = subject.handleEvents(
      receiveCancel: { cancelled.fire() }, receiveRequest: { _ in requested.fire() })
    let task = Task {
      var iterator = publisher.values.makeAsyncIterator()
      return await iterator.next()
    }
    await requested.wait()
    task.cancel()
    await cancelled.wait()
    #expect(await task.value == nil)
    #expect(cancelled.count == 1)
  }

  @Test("a task cancelled before it calls next() cancels the upstream and gets nil")
  func alreadyCancelledTask() async {
    let cancelled = Signal()
    let gate = Signal()
    let publisher = PassthroughSubject<Int, Never>().handleEvents(receiveCancel: {
      cancelled.fire()
    })
    let task = Task {
      var iterator = publisher.values.makeAsyncIterator()
      await gate.wait()
      return await iterator.next()
    }
    task.cancel()
    gate.fire()
    #expect(await task.value == nil)
    #expect(cancelled.count == 1)
  }

  @Test("breaking out of a for await loop cancels the upstream")
  func breakCancels() async {
    let cancelled = Signal()
    let publisher = (1...100).publisher.handleEvents(receiveCancel: { cancelled.fire() })
    var received: [Int] = []
    for await value in publisher.values {
      received.append(value)
      if value == 2 { break }
    }
    #expect(received == [1, 2])
    #expect(cancelled.count == 1)
  }

  @Test("leaving the loop frees the pipeline, although the publisher lives on")
  func breakFreesPipeline() async {
    let subject = CurrentValueSubject<Int, Never>(0)
    weak var weakOwner: TestOwner?
    do {
      let owner = TestOwner()
      weakOwner = owner
      let publisher = subject.handleEvents(receiveOutput: { owner.values.append($0) })
      for await _ in publisher.values { break }
    }
    #expect(weakOwner == nil)
  }

  @Test("a finished iteration frees the pipeline")
  func finishFreesPipeline() async {
    let subject = CurrentValueSubject<Int, Never>(0)
    weak var weakOwner: TestOwner?
    do {
      let owner = TestOwner()
      weakOwner = owner
      let publisher = subject.handleEvents(receiveOutput: { owner.values.append($0) })
      var iterator = publisher.values.makeAsyncIterator()
      #expect(await iterator.next() == 0)
      subject.send(completion: .finished)
      #expect(await iterator.next() == nil)
      #expect(owner.values == [0])
    }
    #expect(weakOwner == nil)
  }

  @Test("values delivered from another thread are neither lost nor duplicated")
  func valuesFromAnotherThread() async {
    let queue = DispatchQueue(label: "AsyncPublisherTests.values")
    let publisher = (0..<500).publisher.receive(on: queue)
    var received: [Int] = []
    for await value in publisher.values {
      received.append(value)
    }
    #expect(received == Array(0..<500))
  }

  @Test("stress: many concurrent iterations over values from other threads lose nothing")
  func stressConcurrentIterations() async {
    let results = await withTaskGroup(of: [Int].self) { group in
      for index in 0..<32 {
        group.addTask {
          let queue = DispatchQueue(label: "AsyncPublisherTests.stress.\(index)")
          var received: [Int] = []
          for await value in (0..<200).publisher.subscribe(on: queue).receive(on: queue).values {
            received.append(value)
          }
          return received
        }
      }
      var all: [[Int]] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(results.count == 32)
    #expect(results.allSatisfy { $0 == Array(0..<200) })
  }

  @Test("stress: cancelling tasks while values arrive never crashes or hangs")
  func stressCancelWhileReceiving() async {
    for _ in 0..<50 {
      let subject = PassthroughSubject<Int, Never>()
      let task = Task {
        var count = 0
        for await _ in subject.values { count += 1 }
        return count
      }
      await concurrentPerform(4) { thread in
        if thread == 0 {
          task.cancel()
        } else {
          for value in 0..<100 { subject.send(value) }
        }
      }
      #expect(await task.value <= 300)
    }
  }

  @Test("several tasks may wait on one iterator: values go to the calls in the order made")
  func severalWaitingCallsGetValuesInOrder() async {
    let requested = Signal()
    let subject = PassthroughSubject<Int, Never>()
    let shared = SharedIterator(
      subject.handleEvents(receiveRequest: { _ in requested.fire() }).values.makeAsyncIterator())
    let first = Task { await shared.next() }
    await requested.wait(count: 1)
    let second = Task { await shared.next() }
    await requested.wait(count: 2)
    subject.send(1)
    subject.send(2)
    #expect(await first.value == 1)
    #expect(await second.value == 2)
  }

  @Test("cancelling one of several waiting tasks cancels the upstream once and ends every call")
  func cancellingOneWaitingTaskEndsAll() async {
    let requested = Signal()
    let cancelled = Signal()
    let subject = PassthroughSubject<Int, Never>()
    let shared = SharedIterator(
      subject.handleEvents(
        receiveCancel: { cancelled.fire() }, receiveRequest: { _ in requested.fire() }
      ).values.makeAsyncIterator())
    let first = Task { await shared.next() }
    let second = Task { await shared.next() }
    await requested.wait(count: 2)
    second.cancel()
    #expect(await first.value == nil)
    #expect(await second.value == nil)
    #expect(await shared.next() == nil)
    #expect(cancelled.count == 1)
  }

  @Test("the end of the publisher ends every waiting call")
  func completionEndsEveryWaitingCall() async {
    let requested = Signal()
    let subject = PassthroughSubject<Int, Never>()
    let shared = SharedIterator(
      subject.handleEvents(receiveRequest: { _ in requested.fire() }).values.makeAsyncIterator())
    let first = Task { await shared.next() }
    let second = Task { await shared.next() }
    await requested.wait(count: 2)
    subject.send(completion: .finished)
    #expect(await first.value == nil)
    #expect(await second.value == nil)
  }

  @Test("a value sent while no call waits for it stops the program, as in Combine")
  func unrequestedValueTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = ScriptedUpstream<Int, Never>()
      let iterator = upstream.values.makeAsyncIterator()
      upstream.send(1)
      withExtendedLifetime(iterator) {}
    }
  }

  @Test("stress: tasks sharing one iterator receive every value exactly once")
  func stressSharedIterator() async {
    let shared = SharedIterator((0..<400).publisher.values.makeAsyncIterator())
    let received = await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<8 {
        group.addTask {
          var values: [Int] = []
          while let value = await shared.next() { values.append(value) }
          return values
        }
      }
      var all: [Int] = []
      for await values in group { all += values }
      return all
    }
    #expect(received.sorted() == Array(0..<400))
  }
}

/// One async iterator shared by several tasks, as in Combine's tests of `values`: each call
/// works on a copy (the copies share the subscription), and the actor lets calls overlap while
/// they wait.
actor SharedIterator<Iterator: AsyncIteratorProtocol> where Iterator.Element: Sendable {
  private var iterator: Iterator

  init(_ iterator: sending Iterator) {
    self.iterator = iterator
  }

  func next() async throws(Iterator.Failure) -> Iterator.Element? {
    var copy = iterator
    let value = try await copy.next(isolation: self)
    iterator = copy
    return value
  }
}
