import CombineExCore
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLSession {
  /// Returns a publisher that wraps a URL session data task for a given URL.
  ///
  /// The publisher publishes data when the task completes, or terminates if the task fails
  /// with an error. The task starts when the subscriber first requests a value.
  ///
  /// ```swift
  /// let cancellable = URLSession.shared
  ///   .dataTaskPublisher(for: URL(string: "http://127.0.0.1:8080/status")!)
  ///   .map { ($0.response as? HTTPURLResponse)?.statusCode ?? 0 }
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// // Prints: 200, finished — when the server answers
  /// // Not run by the doc tests: it needs a server on port 8080.
  /// ```
  ///
  /// - Parameter url: The URL for which to create a data task.
  /// - Returns: A publisher that wraps a data task for the URL.
  public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
    DataTaskPublisher(request: URLRequest(url: url), session: self)
  }

  /// Returns a publisher that wraps a URL session data task for a given URL request.
  ///
  /// The publisher publishes data when the task completes, or terminates if the task fails
  /// with an error. The task starts when the subscriber first requests a value.
  ///
  /// - Parameter request: The URL request for which to create a data task.
  /// - Returns: A publisher that wraps a data task for the URL request.
  public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
    DataTaskPublisher(request: request, session: self)
  }

  /// A publisher that delivers the results of performing URL session data tasks.
  ///
  /// Each subscription runs a task of its own: it asks `session` for a data task when the
  /// subscriber first requests a value, resumes it (once), then delivers one value, the data and the
  /// response, followed by `.finished`. A response is a value whatever its HTTP status (a 404
  /// is data like any other); the publisher fails only when the task fails: with its
  /// `URLError`, or with `URLError(.unknown)` when the session reports no response, or an
  /// error of another kind. Cancelling the subscription cancels the task, and nothing is
  /// delivered after `cancel()`. The value and the completion arrive on the session's
  /// delegate queue.
  ///
  /// Requesting `.none` is a misuse, as in Combine: it stops the program.
  public struct DataTaskPublisher: Publisher {
    /// The kind of values published by this publisher: the data and the response of the task.
    public typealias Output = (data: Data, response: URLResponse)

    /// The kind of errors this publisher might publish.
    public typealias Failure = URLError

    /// The URL request performed by the data task associated with this publisher.
    public let request: URLRequest

    /// The URL session that performs the data task associated with this publisher.
    public let session: URLSession

    /// Creates a data task publisher from the provided URL request and URL session.
    ///
    /// - Parameters:
    ///   - request: The URL request from which to create a data task.
    ///   - session: The session from which to create a data task.
    public init(request: URLRequest, session: URLSession) {
      self.request = request
      self.session = session
    }

    /// Attaches the subscriber; the data task is created on its first request.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == URLError {
      subscriber.receive(subscription: DataTaskSubscription(parent: self, downstream: subscriber))
    }
  }
}
