import CombineEx
import CombineExTesting
import Dispatch
import Foundation
import Testing

extension MainQueueTests {
  @Suite("receiveOnMain, receiveOnMainAsync, receiveOnMainRunLoop")
  struct ReceiveOnMainTests {
    @Test("receiveOnMain delivers at once when the upstream sends on the main queue")
    func inlineOnMain() async {
      let log = EventLog()
      let subject = PassthroughSubject<Int, Never>()
      let cancellable = subject.receiveOnMain().sink { log.append("got \($0)") }
      await MainActor.run {
        subject.send(1)
        log.append("send returned")
      }
      #expect(log.values == ["got 1", "send returned"])
      cancellable.cancel()
    }

    @Test("receiveOnMain hops values sent on other threads to the main queue, in order")
    func hopsInOrder() async {
      let subject = PassthroughSubject<Int, Never>()
      let log = EventLog()
      let cancellable = subject.receiveOnMain().sink { log.append("\($0):\(MainQueue.isCurrent)") }
      DispatchQueue.global().sync {
        for value in 1...100 { subject.send(value) }
      }
      await MainQueue.drain()
      #expect(log.values == (1...100).map { "\($0):true" })
      cancellable.cancel()
    }

    @Test("receiveOnMain keeps a background value ahead of a later main-queue value")
    func keepsOrderAcrossThreads() async {
      let subject = PassthroughSubject<Int, Never>()
      let log = EventLog()
      let cancellable = subject.receiveOnMain().sink { log.append("\($0)") }
      await MainActor.run {
        MainQueue.onBackgroundThread { subject.send(1) }
        subject.send(2)
        log.append("main continues")
      }
      await MainQueue.drain()
      #expect(log.values == ["main continues", "1", "2"])
      cancellable.cancel()
    }

    @Test("receiveOnMain delivers the completion on the main queue")
    func completionOnMain() async {
      let subject = PassthroughSubject<Int, Never>()
      let log = EventLog()
      let cancellable = subject.receiveOnMain().sink(
        receiveCompletion: { _ in log.append("finished on main: \(MainQueue.isCurrent)") },
        receiveValue: { _ in })
      DispatchQueue.global().sync { subject.send(completion: .finished) }
      await MainQueue.drain()
      #expect(log.values == ["finished on main: true"])
      cancellable.cancel()
    }

    @Test("cancelling receiveOnMain drops values that were still hopping")
    func cancelDropsHops() async {
      let subject = PassthroughSubject<Int, Never>()
      let log = EventLog()
      let cancellable = subject.receiveOnMain().sink { log.append("\($0)") }
      await MainActor.run {
        MainQueue.onBackgroundThread { subject.send(1) }
        cancellable.cancel()
      }
      await MainQueue.drain()
      #expect(log.values == [])
    }

    @Test("receiveOnMainAsync delivers later, on the main queue, even from the main queue")
    func asyncIsNeverInline() async {
      let subject = PassthroughSubject<Int, Never>()
      let log = EventLog()
      let cancellable = subject.receiveOnMainAsync().sink {
        log.append("got \($0) on main: \(MainQueue.isCurrent)")
      }
      await MainActor.run {
        subject.send(1)
        log.append("send returned")
      }
      await MainQueue.drain()
      #expect(log.values == ["send returned", "got 1 on main: true"])
      cancellable.cancel()
    }

    @Test("receiveOnMainAsync receives on DispatchQueue.main")
    func asyncUsesMainQueue() {
      // On Linux, each `DispatchQueue.main` is a new wrapper of the one main queue.
      let publisher = Just(1).receiveOnMainAsync()
      #expect(publisher.scheduler.label == DispatchQueue.main.label)
    }

    @Test("receiveOnMainRunLoop receives on RunLoop.main")
    func runLoopUsesMainRunLoop() {
      // The test runner does not run the main run loop, so this checks the wiring only.
      let publisher = Just(1).receiveOnMainRunLoop()
      #expect(publisher.scheduler === RunLoop.main)
    }
  }
}
