import CombineEx
import CombineExTesting
import Dispatch
import Foundation
import Testing

@Suite("receiveInBackground")
struct ReceiveInBackgroundTests {
  @Test("receives on the global queue of the given quality of service")
  func globalQueue() {
    let publisher = PassthroughSubject<Int, Never>().receiveInBackground(qos: .utility)
    #expect(
      type(of: publisher)
        == Publishers.ReceiveOn<PassthroughSubject<Int, Never>, DispatchQueue>.self)
    #expect(publisher.scheduler.label == DispatchQueue.global(qos: .utility).label)
    let byDefault = PassthroughSubject<Int, Never>().receiveInBackground()
    #expect(byDefault.scheduler.label == DispatchQueue.global(qos: .default).label)
  }

  @Test("delivers every value, then the completion, in order")
  func deliversInOrder() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.receiveInBackground(qos: .utility).record()
    for value in 0..<50 { subject.send(value) }
    subject.send(completion: .finished)
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == Array(0..<50))
  }

  @Test("a cold upstream stays cold")
  func defaultsAndColdness() async {
    let runs = RunCounter()
    let erased: AnyDeferredPublisher<Int, Never> = countingDeferred([1, 2], counter: runs)
      .receiveInBackground()
      .eraseToAnyDeferredPublisher()
    let recorder = erased.record()
    #expect(await recorder.completion == .finished)
    #expect(recorder.values == [1, 2])
    #expect(runs.value == 1)
  }
}
